from funcoes import extrai_linha, extrai_coluna, verifica_vencedor

LETRAS = 'ABC'


def imprime(tab):
    print('  1   2   3')
    for i, linha in enumerate(tab):
        print('    |   |   ')
        print(f'{LETRAS[i]} {linha[0]} | {linha[1]} | {linha[2]} ')
        print(' ___|___|___' if i < 2 else '    |   |   ')


def le_jogada(tab):
    # The exam's promise: a letter and a number, with spaces at most. Taken
    # at its word: an empty line or 'AA' would crash int() and [1], and
    # never come.
    while True:
        pos = input().replace(' ', '')
        letra, numero = pos[0].upper(), int(pos[1])
        if letra not in LETRAS or not 1 <= numero <= 3:
            print('Posição inválida')
        elif tab[extrai_linha(letra + str(numero))][numero - 1] != ' ':
            print('Posição ocupada')
        else:
            return extrai_linha(letra + str(numero)), numero - 1


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
