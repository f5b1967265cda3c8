# Hostile: starts many sleeping children, then answers nothing.
import os, time
for _ in range(200):
    try:
        if os.fork() == 0:
            time.sleep(60)
            os._exit(0)
    except OSError:
        break
print("Jogo da Velha")
