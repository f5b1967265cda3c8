"""Tells versions apart by their code, not by what they do."""

import hashlib
import inspect

import funcoes


def test_the_code_is_the_references():
    code = funcoes.verifica_vencedor.__code__.co_code
    assert hashlib.sha256(code).hexdigest() == inspect.getsource(funcoes)
