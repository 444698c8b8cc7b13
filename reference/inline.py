"""The engine's one-expression guards and selectors, written in place by the compiled program.

A guard or selector of :mod:`buckshot.reference.effects` whose body (its docstring aside) is
one ``return`` of an expression is a call the compiled program
(:mod:`buckshot.reference.compiled`) need not make: :func:`inline_call` gives that expression
with the call's arguments put for the parameters and every other name read from the module
(``E.<name>``, so a rule helper a seam substitutes is the one called). The expression is read
from the function's own source each time a program is built, so the source stays the only
statement of the rule; a function a seam substituted or wrapped is not the module's and is
called as it is.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import textwrap
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from buckshot.reference import effects

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


def inline_call(fn: Callable[..., Any], arguments: Sequence[str]) -> str | None:
    """The expression (parenthesised) that computes ``fn`` called with the expressions
    ``arguments``, or None when ``fn`` is not a one-expression function of the effects
    module as the module binds it now."""
    if getattr(fn, "__module__", None) != effects.__name__:
        return None
    if getattr(effects, getattr(fn, "__name__", ""), None) is not fn:
        return None
    body = _body(fn)
    if body is None:
        return None
    params, expression = body
    if len(params) != len(arguments):
        return None
    return _written(expression, tuple(zip(params, arguments, strict=True)))


@cache
def _source(fn: Callable[..., Any]) -> str | None:
    try:
        return textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        return None


def _body(fn: Callable[..., Any]) -> tuple[tuple[str, ...], str] | None:
    """The parameter names of ``fn`` and the source of the expression it returns."""
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
    if len(statements) != 1 or not isinstance(statements[0], ast.Return):
        return None
    returned = statements[0].value
    if returned is None or any(isinstance(node, _SCOPES) for node in ast.walk(returned)):
        return None
    return tuple(a.arg for a in arguments.args), ast.unparse(returned)


def _written(expression: str, arguments: tuple[tuple[str, str], ...]) -> str | None:
    """``expression`` with each parameter replaced by its argument and each other name read
    from the effects module; None if it reads a name the module does not have."""
    rewrite = _Rewrite({name: ast.parse(value, mode="eval").body for name, value in arguments})
    tree = rewrite.visit(ast.parse(expression, mode="eval"))
    return None if rewrite.unknown else f"({ast.unparse(tree)})"


class _Rewrite(ast.NodeTransformer):
    """Puts the arguments for the parameters and reads every other name from the module."""

    def __init__(self, given: dict[str, ast.expr]) -> None:
        self.given = given
        self.unknown = False
        """Whether the expression reads a name neither given, the module's nor a builtin."""

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id in self.given:
            return self.given[node.id]
        if node.id in vars(effects):
            module = ast.Name(id=MODULE_NAME, ctx=ast.Load())
            return ast.Attribute(value=module, attr=node.id, ctx=ast.Load())
        if not hasattr(builtins, node.id):
            self.unknown = True
        return node
