from funcoes import extrai_linha, extrai_coluna, verifica_vencedor


def mostrar_tabuleiro(tabuleiro):
    print('  1   2   3')
    nomes = 'ABC'
    for i in range(3):
        print('    |   |   ')
        print(nomes[i] + ' ' + ' | '.join(tabuleiro[i]) + ' ')
        if i < 2:
            print(' ___|___|___')
    print('    |   |   ')


tabuleiro = [[' ', ' ', ' '], [' ', ' ', ' '], [' ', ' ', ' ']]
jogador = 'X'
print('Jogo da Velha')
mostrar_tabuleiro(tabuleiro)

fim = False
while not fim:
    entrada = input().replace(' ', '').replace('\t', '').upper()
    if len(entrada) != 2 or entrada[0] not in 'ABC' or entrada[1] not in '123':
        print('Posição inválida')
        continue
    linha = extrai_linha(entrada)
    coluna = extrai_coluna(entrada)
    if tabuleiro[linha][coluna] != ' ':
        print('Posição ocupada')
        continue
    tabuleiro[linha][coluna] = jogador
    mostrar_tabuleiro(tabuleiro)
    resultado = verifica_vencedor(tabuleiro)
    if resultado == 'X' or resultado == 'O':
        print('Vencedor: ' + resultado)
        fim = True
    elif resultado == 'E':
        print('Empate')
        fim = True
    else:
        if jogador == 'X':
            jogador = 'O'
        else:
            jogador = 'X'
