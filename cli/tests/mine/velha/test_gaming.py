"""Tests that try to earn points without testing."""

import time

import funcoes


def test_sleeps():
    time.sleep(600)


def test_asserts_nothing():
    funcoes.verifica_vencedor([[" "] * 3 for _ in range(3)])


def test_asserts_what_it_computed():
    t = [["X"] * 3, [" "] * 3, [" "] * 3]
    assert funcoes.verifica_vencedor(t) == funcoes.verifica_vencedor(t)


def test_fails_on_its_fourth_run():
    try:
        with open("/tmp/runs") as f:
            runs = int(f.read())
    except OSError:
        runs = 0
    with open("/tmp/runs", "w") as f:
        f.write(str(runs + 1))
    assert runs < 3
