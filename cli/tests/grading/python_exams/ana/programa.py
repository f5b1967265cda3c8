from funcoes import extrai_linha, extrai_coluna, verifica_vencedor


def imprime_tabuleiro(t):
    print('  1   2   3')
    letras = 'ABC'
    for i in range(3):
        print('    |   |   ')
        print(letras[i] + ' ' + t[i][0] + ' | ' + t[i][1] + ' | ' + t[i][2] + ' ')
        if i < 2:
            print(' ___|___|___')
        else:
            print('    |   |   ')


def limpa(entrada):
    sem_espaco = ''
    for ch in entrada:
        if ch != ' ' and ch != '\t':
            sem_espaco += ch
    return sem_espaco.upper()


tab = [[' ', ' ', ' '], [' ', ' ', ' '], [' ', ' ', ' ']]
print('Jogo da Velha')
imprime_tabuleiro(tab)

jogador = 'X'
resultado = 'N'
while resultado == 'N':
    pos = limpa(input('Jogador ' + jogador + ': '))
    if len(pos) != 2 or pos[0] not in 'ABC' or pos[1] not in '123':
        print('Posição inválida')
        continue
    l = extrai_linha(pos)
    c = extrai_coluna(pos)
    if tab[l][c] != ' ':
        print('Posição ocupada')
        continue
    tab[l][c] = jogador
    imprime_tabuleiro(tab)
    resultado = verifica_vencedor(tab[0][0], tab[0][1], tab[0][2],
                                  tab[1][0], tab[1][1], tab[1][2],
                                  tab[2][0], tab[2][1], tab[2][2])
    if jogador == 'X':
        jogador = 'O'
    else:
        jogador = 'X'

if resultado == 'E':
    print('Empate')
else:
    print('Vencedor: ' + resultado)
