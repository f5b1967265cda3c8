while True:
    print("Jogo da Velha" * 100)
