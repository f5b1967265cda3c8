import funcoes

tabuleiro = [[' ', ' ', ' '],
             [' ', ' ', ' '],
             [' ', ' ', ' ']]

def desenha():
    print('  1   2   3')
    print('    |   |   ')
    print('A ' + tabuleiro[0][0] + ' | ' + tabuleiro[0][1] + ' | ' + tabuleiro[0][2] + ' ')
    print(' ___|___|___')
    print('    |   |   ')
    print('B ' + tabuleiro[1][0] + ' | ' + tabuleiro[1][1] + ' | ' + tabuleiro[1][2] + ' ')
    print(' ___|___|___')
    print('    |   |   ')
    print('C ' + tabuleiro[2][0] + ' | ' + tabuleiro[2][1] + ' | ' + tabuleiro[2][2] + ' ')
    print('    |   |   ')

print('Jogo da Velha')
desenha()

jogador = 'X'
status = 'N'
while status == 'N':
    jogada = input()
    linha = funcoes.extrai_linha(jogada)
    coluna = funcoes.extrai_coluna(jogada)
    tabuleiro[linha][coluna] = jogador
    desenha()
    status = funcoes.verifica_vencedor(tabuleiro)
    if jogador == 'X':
        jogador = 'O'
    else:
        jogador = 'X'

if status == 'E':
    print('Empate')
else:
    print('Vencedor: ' + status)
