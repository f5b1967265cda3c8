def extrai_linha(posicao):
    raise NotImplementedError("Implemente a funcao extrai_linha")


def extrai_coluna(posicao):
    raise NotImplementedError("Implemente a funcao extrai_coluna")


def verifica_vencedor(tabuleiro):
    raise NotImplementedError("Implemente a funcao verifica_vencedor")
