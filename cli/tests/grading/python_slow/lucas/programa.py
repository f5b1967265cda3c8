from funcoes import extrai_linha, extrai_coluna, verifica_vencedor

LETRAS = 'ABC'


def imprime(tab):
    print('  1   2   3')
    for i, linha in enumerate(tab):
        print('    |   |   ')
        print(f'{LETRAS[i]} {linha[0]} | {linha[1]} | {linha[2]} ')
        print(' ___|___|___' if i < 2 else '    |   |   ')


def le_jogada(tab):
    while True:
        bruto = input()
        pos = ''.join(bruto.split()).upper()
        if len(pos) != 2 or pos[0] not in LETRAS or pos[1] not in '123':
            print('Posição inválida')
        elif tab[extrai_linha(pos)][extrai_coluna(pos)] != ' ':
            print('Posição ocupada')
        else:
            return extrai_linha(pos), extrai_coluna(pos)


def main():
    tab = [[' ' for _ in range(3)] for _ in range(3)]
    print('Jogo da Velha')
    imprime(tab)
    vez = 'X'
    while True:
        try:
            l, c = le_jogada(tab)
        except EOFError:
            return
        tab[l][c] = vez
        imprime(tab)
        res = verifica_vencedor(tab)
        if res == 'E':
            print('Empate')
            return
        if res in ('X', 'O'):
            print(f'Vencedor: {res}')
            return
        vez = 'O' if vez == 'X' else 'X'


main()
