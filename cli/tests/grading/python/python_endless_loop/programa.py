print("Jogo da Velha")
while True:
    pass
