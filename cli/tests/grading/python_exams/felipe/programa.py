from funcoes import extrai_linha, extrai_coluna, verifica_vencedor


def print_tabuleiro(tab):
    print('  1   2   3')
    print('    |   |   ')
    print('A %s | %s | %s ' % (tab[0][0], tab[0][1], tab[0][2]))
    print(' ___|___|___')
    print('    |   |   ')
    print('B %s | %s | %s ' % (tab[1][0], tab[1][1], tab[1][2]))
    print(' ___|___|___')
    print('    |   |   ')
    print('C %s | %s | %s ' % (tab[2][0], tab[2][1], tab[2][2]))
    print('    |   |   ')


def normaliza(texto):
    resultado = ''
    for letra in texto:
        if not letra.isspace():
            resultado += letra.upper()
    return resultado


tab = [[' ', ' ', ' '], [' ', ' ', ' '], [' ', ' ', ' ']]
jogador_atual = 'X'
print('Jogo da Velha')
print_tabuleiro(tab)

while True:
    pos = normaliza(input())
    if len(pos) != 2 or pos[0] not in 'ABC' or pos[1] not in '123':
        print('Posição inválida')
        continue
    i = extrai_linha(pos)
    j = int(extrai_coluna(pos))
    if tab[i][j] != ' ':
        print('Posição ocupada')
        continue
    tab[i][j] = jogador_atual
    print_tabuleiro(tab)
    v = verifica_vencedor(tab)
    if v == 'E':
        print('Empate')
        break
    elif v != 'N':
        print('Vencedor: ' + v)
        break
    if jogador_atual == 'X':
        jogador_atual = 'O'
    else:
        jogador_atual = 'X'
