"""The kit's adapter for jogo da velha in Python: the function driver's side.

It imports the student's `funcoes.py` (from the folder it runs in) and answers
the driver's requests, one a line on stdin, one answer a line on stdout:

    extrai_linha <position>          -> the row index, 0 to 2
    extrai_coluna <position>         -> the column index, 0 to 2
    verifica_vencedor <9 cells>      -> X, O, E or N; in the exam's forms the
                                        function takes: one list of three
                                        lists, or nine strings
    verifica_vencedor_lista <cells>  -> the same, in the list form only
    melhor_jogada <9 cells>          -> "<row> <column>" of a best move

Cells go row by row from A1 to C3, "." for an empty one. An answer of the
wrong type is answered with a line that says so (a wrong answer), as
`said: ` and a TOML inline table of an English template and its values,
which the kit words in the starter's language
(`boardkit::judge::ADAPTER_WORDS`). An
exception stops the adapter with its traceback on stderr (the case crashed);
`NotImplementedError` says the function is not yet implemented. What the
student's code prints, or reads from stdin, never mixes with the answers.

Standard library only: it runs in the grader's sandbox with the system's
python3, and in a starter with the student's.
"""

import contextlib
import inspect
import io
import json
import sys
import traceback


class WrongType(Exception):
    """An answer of a type the statement does not give: a template of the
    kit's words and its values."""

    def __init__(self, template, **values):
        super().__init__(template)
        self.template = template
        self.values = values


def said(template, **values):
    """An answer line the kit words: `template` (English, its catalogue's
    key) and the values of its placeholders."""
    # A JSON string is a TOML basic string (its escapes are TOML's too).
    fields = [("template", template)] + sorted(values.items())
    return "said: {%s}" % ", ".join(
        "%s = %s" % (key, json.dumps(value, ensure_ascii=False)) for key, value in fields
    )


def board_lists(cells):
    cells = [" " if c == "." else c for c in cells]
    return [cells[0:3], cells[3:6], cells[6:9]]


def takes_nine(function):
    """Whether `function`'s signature names nine cells one by one."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return False
    positional = [
        p
        for p in parameters
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    return len(positional) >= 9


def binds(function, arguments):
    """Whether `function` can be called with `arguments` at all (a function
    with no signature to read is tried)."""
    try:
        inspect.signature(function).bind(*arguments)
    except TypeError:
        return False
    except ValueError:
        return True
    return True


def index(name, argument, value):
    if type(value) is not int:
        raise WrongType(
            "wrong type: {call} returned {value}, a {type}: the statement asks for a whole number from 0 to 2",
            call="%s(%r)" % (name, argument),
            value=repr(value),
            type=type(value).__name__,
        )
    return str(value)


def verifica(function, board, request):
    """`verifica_vencedor` called in the exam's forms it accepts: one list of
    three lists, or nine strings (the list form alone for
    `verifica_vencedor_lista`). A function that takes both (`*args`) is
    called in each until one answers: what it answers is graded, and a
    form it cannot take is never held against it."""
    cells = [cell for row in board for cell in row]
    forms = [
        ("list", (board,), "verifica_vencedor(%r)" % (board,)),
        ("nine", tuple(cells), "verifica_vencedor(%s)" % ", ".join(map(repr, cells))),
    ]
    if request == "verifica_vencedor_lista":
        forms = forms[:1]
    elif takes_nine(function):
        forms.reverse()
    usable = [form for form in forms if binds(function, form[1])]
    if not usable:
        if request == "verifica_vencedor_lista":
            return said(
                "verifica_vencedor takes nine strings; this level needs the "
                "form that takes one list of three lists"
            )
        usable = forms[:1]
    first = None
    for _, arguments, shown in usable:
        # Fresh lists each call: a try must not see what another changed.
        arguments = tuple(list(map(list, a)) if isinstance(a, list) else a for a in arguments)
        try:
            value = function(*arguments)
        except NotImplementedError:
            raise
        except Exception as error:
            first = first or error
            continue
        if isinstance(value, str):
            return value
        first = first or WrongType(
            "wrong type: {call} returned {value}, a {type}: the statement asks for 'X', 'O', 'E' or 'N'",
            call=shown,
            value=repr(value),
            type=type(value).__name__,
        )
    raise first


def answer(funcoes, function, argument):
    if function in ("extrai_linha", "extrai_coluna"):
        return index(function, argument, getattr(funcoes, function)(argument))
    if function in ("verifica_vencedor", "verifica_vencedor_lista"):
        return verifica(funcoes.verifica_vencedor, board_lists(argument), function)
    if function == "melhor_jogada":
        board = board_lists(argument)
        move = funcoes.melhor_jogada([row[:] for row in board])
        if (
            not isinstance(move, (tuple, list))
            or len(move) != 2
            or any(type(v) is not int for v in move)
        ):
            raise WrongType(
                "wrong type: {call} returned {value}: the statement asks for (linha, coluna), two whole numbers",
                call="melhor_jogada(%r)" % (board,),
                value=repr(move),
            )
        return "%d %d" % (move[0], move[1])
    return "bad request: %s %s" % (function, argument)


def main():
    requests = sys.stdin.read().splitlines()
    answers = sys.stdout
    # The student's prints go to stderr, and input() finds nothing.
    sys.stdin = io.StringIO("")
    sys.path.insert(0, ".")
    with contextlib.redirect_stdout(sys.stderr):
        try:
            import funcoes
        except Exception:
            traceback.print_exc()
            return 1
        for request in requests:
            function, _, argument = request.partition(" ")
            try:
                line = answer(funcoes, function, argument)
            except WrongType as wrong:
                line = said(wrong.template, **wrong.values)
            except NotImplementedError as missing:
                # The stub's message names its function already.
                what = str(missing)
                if not what.startswith(function):
                    what = function + (": " + what if what else "")
                sys.stderr.write("not yet implemented: %s\n" % what)
                return 1
            except AttributeError as missing:
                if getattr(missing, "obj", None) is funcoes or "funcoes" in str(missing):
                    sys.stderr.write(
                        "funcoes.py has no function %s: %s\n" % (function, missing)
                    )
                    return 1
                traceback.print_exc()
                return 1
            except Exception:
                traceback.print_exc()
                return 1
            answers.write(line + "\n")
            answers.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
