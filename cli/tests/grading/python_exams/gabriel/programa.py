from funcoes import extrai_linha, extrai_coluna, verifica_vencedor

raise NotImplementedError("Implemente o jogo aqui")
