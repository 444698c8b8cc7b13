"""The engine's one-line guards, selectors and actions, written in place by the compiled program.

A guard or selector of :mod:`buckshot.reference.effects` whose body (its docstring aside) is
one ``return`` of an expression, or an action whose body is one simple statement, is a call
the compiled program (:mod:`buckshot.reference.compiled`) need not make: :func:`inline_call`
gives that expression, :func:`inline_action` that statement, with the call's arguments put for
the parameters and every other name read from the module (``E.<name>``, so a rule helper a
seam substitutes is the one called); a call it makes of another such function of the module
(not a rule helper) is written in place in turn. Both are read from the function's own source
each time a program is built, so the source stays the only statement of the rule; a function
a seam substituted or wrapped is not the module's and is called as it is.
"""

from __future__ import annotations

import ast
import builtins
import copy
import inspect
import textwrap
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from buckshot.reference import effects
from buckshot.reference.seams import HELPERS

MODULE_NAME = "E"
"""The name the compiled program binds :mod:`buckshot.reference.effects` to."""

_SCOPES = (
    ast.Lambda,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
    ast.NamedExpr,
    ast.Await,
    ast.Yield,
    ast.YieldFrom,
)
"""Expressions with a scope or a binding of their own, which are never written in place."""


_SIMPLE = (ast.Expr, ast.Assign, ast.AugAssign)
"""The statements an action written in place may be."""


def inline_call(fn: Callable[..., Any], arguments: Sequence[str]) -> str | None:
    """The expression (parenthesised) that computes ``fn`` called with the expressions
    ``arguments``, or None when ``fn`` is not a one-expression function of the effects
    module as the module binds it now."""
    body = _body(fn, len(arguments))
    if body is None or not isinstance(body[1], ast.Return) or body[1].value is None:
        return None
    written = _written(body[1].value, body[0], arguments)
    return None if written is None else f"({written})"


def inline_action(fn: Callable[..., Any], arguments: Sequence[str]) -> str | None:
    """The statement that does what ``fn`` called with the expressions ``arguments`` does,
    or None when ``fn`` is not a one-statement action of the effects module as the module
    binds it now."""
    body = _body(fn, len(arguments))
    if body is None or not isinstance(body[1], _SIMPLE):
        return None
    return _written(body[1], body[0], arguments)


def _body(fn: Callable[..., Any], arity: int) -> tuple[tuple[str, ...], ast.stmt] | None:
    """The parameter names of ``fn`` and its one statement, when ``fn`` is the effects
    module's function of that name, takes ``arity`` plain parameters and has one statement
    besides its docstring, with no scope or binding of its own."""
    if getattr(fn, "__module__", None) != effects.__name__:
        return None
    if getattr(effects, getattr(fn, "__name__", ""), None) is not fn:
        return None
    parsed = _parsed(fn)
    if parsed is None or len(parsed[0]) != arity:
        return None
    return parsed


@cache
def _source(fn: Callable[..., Any]) -> str | None:
    try:
        return textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        return None


@cache
def _parsed(fn: Callable[..., Any]) -> tuple[tuple[str, ...], ast.stmt] | None:
    """The parameter names of ``fn`` and its one statement (docstring aside), from its source;
    None for a function of another shape."""
    source = _source(fn)
    if source is None:
        return None
    (definition,) = ast.parse(source).body
    if not isinstance(definition, ast.FunctionDef):
        return None
    arguments = definition.args
    if arguments.posonlyargs or arguments.vararg or arguments.kwonlyargs or arguments.kwarg:
        return None
    statements = definition.body
    first = statements[0] if statements else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        statements = statements[1:]  # the docstring
    if len(statements) != 1 or any(isinstance(n, _SCOPES) for n in ast.walk(statements[0])):
        return None
    return tuple(a.arg for a in arguments.args), statements[0]


def _written(node: ast.AST, params: tuple[str, ...], arguments: Sequence[str]) -> str | None:
    """``node`` with each parameter replaced by its argument and each other name read
    from the effects module; None if it binds a parameter or reads a name the module lacks."""
    given = {
        name: ast.parse(value, mode="eval").body
        for name, value in zip(params, arguments, strict=True)
    }
    rewrite = _Rewrite(given)
    tree = rewrite.visit(copy.deepcopy(node))
    return None if rewrite.unknown else ast.unparse(tree)


class _Rewrite(ast.NodeTransformer):
    """Puts the arguments for the parameters and reads every other name from the module."""

    def __init__(self, given: dict[str, ast.expr]) -> None:
        self.given = given
        self.unknown = False
        """Whether the expression reads a name neither given, the module's nor a builtin."""

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if not isinstance(node.ctx, ast.Load):
            self.unknown = True  # a binding (an action's local) is never written in place
            return node
        if node.id in self.given:
            return self.given[node.id]
        if node.id in vars(effects):
            module = ast.Name(id=MODULE_NAME, ctx=ast.Load())
            return ast.Attribute(value=module, attr=node.id, ctx=ast.Load())
        if not hasattr(builtins, node.id):
            self.unknown = True
        return node

    def visit_Call(self, node: ast.Call) -> ast.expr:
        """A call of another one-expression function of the module, with plain arguments,
        is written in place too, unless it is a rule helper a seam may substitute."""
        self.generic_visit(node)
        called = node.func
        if not (
            isinstance(called, ast.Attribute)
            and isinstance(called.value, ast.Name)
            and called.value.id == MODULE_NAME
            and called.attr not in HELPERS
            and not node.keywords
            and all(_plain(argument) for argument in node.args)
        ):
            return node
        fn = getattr(effects, called.attr, None)
        body = _body(fn, len(node.args)) if callable(fn) else None
        if body is None or not isinstance(body[1], ast.Return) or body[1].value is None:
            return node
        inner = _Rewrite(dict(zip(body[0], node.args, strict=True)))
        written = inner.visit(copy.deepcopy(body[1].value))
        return node if inner.unknown else written


def _plain(node: ast.expr) -> bool:
    """Whether ``node`` is a name or a constant, or an attribute of one: an argument that costs
    nothing to read again."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name | ast.Constant)
