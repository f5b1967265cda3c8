from funcoes import *

tabuleiro = []
for _ in range(3):
    tabuleiro.append([' ', ' ', ' '])


def exibe():
    saida = '  1   2   3\n'
    for n, letra in enumerate('ABC'):
        saida += '    |   |   \n'
        saida += letra + ' ' + tabuleiro[n][0] + ' | ' + tabuleiro[n][1] + ' | ' + tabuleiro[n][2] + ' \n'
        if n < 2:
            saida += ' ___|___|___\n'
        else:
            saida += '    |   |   '
    print(saida)


print('Jogo da Velha')
exibe()
vez = 'X'
acabou = False
while not acabou:
    texto = input()
    jogada = ''.join(texto.split()).upper()
    if len(jogada) != 2 or jogada[0] not in 'ABC' or jogada[1] not in '123':
        print('Posicao invalida')
    else:
        l = extrai_linha(jogada)
        c = extrai_coluna(jogada)
        if tabuleiro[l][c] != ' ':
            print('Posicao ocupada')
        else:
            tabuleiro[l][c] = vez
            exibe()
            r = verifica_vencedor(tabuleiro)
            if r == 'N':
                vez = 'O' if vez == 'X' else 'X'
            else:
                acabou = True
                if r == 'E':
                    print('Empate')
                else:
                    print('Vencedor: ' + r)
