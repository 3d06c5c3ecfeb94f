"""Operations: the frozen records every table action produces.

An Operation is what happened, in the words of the rules. The journal stores them, sync ships
them, and replay folds them back into state; so each one converts to a plain JSON-able payload
and back without loss (`to_payload` / `operation_from_record`). Money is int, ratios are
`Fraction` (stored as "num/den"), cards are their codes.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, Union

from kiosk.rules.cards import Card
from kiosk.rules.errors import UnreadableInput

JSON = dict[str, Any]
_REGISTRY: dict[str, type[Operation]] = {}
T = TypeVar("T")


@dataclasses.dataclass(frozen=True)
class Operation:
    """Base of every journaled record; subclasses set `kind` and are frozen dataclasses."""

    __slots__ = ()
    kind: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()  # older kinds of the same record, still read
    face_down: ClassVar[bool] = False  # carries a card no player may see (a burned card)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kind = cls.__dict__.get("kind")
        if kind:
            for name in (kind, *cls.__dict__.get("aliases", ())):
                known = _REGISTRY.get(name)
                if known is not None and (known.__module__, known.__qualname__) != (
                        cls.__module__, cls.__qualname__):
                    raise TypeError(f"two operations share the kind {name!r}")
                _REGISTRY[name] = cls

    def to_payload(self) -> JSON:
        return {f.name: encode(getattr(self, f.name)) for f in dataclasses.fields(self)}


@dataclasses.dataclass(frozen=True)
class TableRecord(Operation):
    """Base of the table's own records (a device's report, the inspector's call: in
    kiosk/table/records.py); they are no game's, and every game's `apply` leaves its state
    as it is for them. A record of another game it refuses."""

    __slots__ = ()


@dataclasses.dataclass(frozen=True)
class TableOpening(Operation):
    """Base of every game's first record: which game, on which table, under which house
    rules. A journal may hold several: the table changed game or rules (`kiosk/table/fold`).
    Subclasses declare the fields `game`, `table_id` and `rules`."""

    __slots__ = ()
    if TYPE_CHECKING:  # fields each game's record declares (in its own order)
        @property
        def game(self) -> str: ...

        @property
        def table_id(self) -> str: ...

        @property
        def rules(self) -> Any: ...


@dataclasses.dataclass(frozen=True)
class RoundVoid(Operation):
    """Base of every game's void (rule 2.7): the round's bets go back; held shoe cards go
    with the round."""

    __slots__ = ()


@dataclasses.dataclass(frozen=True)
class LateBet(Operation):
    """Base of every game's bet placed too late (after "no more bets"): not played, on record
    for the inspector."""

    __slots__ = ()


@dataclasses.dataclass(frozen=True)
class CardQuery(Operation):
    """Base of every game's queried card: the dealer must decide; `message` says why."""

    __slots__ = ()
    if TYPE_CHECKING:
        @property
        def message(self) -> str: ...


def operation_kinds() -> frozenset[str]:
    return frozenset(_REGISTRY)


def operation_from_record(kind: str, payload: JSON) -> Operation:
    """Rebuild an Operation from its journal record; `UnreadableInput` if it does not fit."""
    cls = _REGISTRY.get(kind)
    if cls is None:
        raise UnreadableInput(f"unknown operation kind {kind!r}")
    try:
        op: Operation = decode(cls, payload)
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
        raise UnreadableInput(f"operation {kind!r} has an unreadable payload: {exc}") from exc
    return op


def encode(value: Any) -> Any:
    """A value as JSON-able data; floats are refused (money is never a float)."""
    if value is None or isinstance(value, bool | int | str):
        return value.value if isinstance(value, Enum) else value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    if isinstance(value, dict):  # {chip value: count}: JSON's keys are text
        return {str(encode(k)): encode(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    raise TypeError(f"cannot journal a {type(value).__name__}: {value!r}")


_HINTS: dict[type, dict[str, Any]] = {}


def decode(tp: Any, data: Any) -> Any:
    """The inverse of `encode`, guided by the type annotation `tp`."""
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        args = typing.get_args(tp)
        if data is None and type(None) in args:
            return None
        last: Exception | None = None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return decode(arg, data)
            except (KeyError, TypeError, ValueError) as exc:
                last = exc
        raise ValueError(f"{data!r} fits none of {tp}") from last
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(data, list):
            raise TypeError(f"expected a list, got {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], d) for d in data)
        return tuple(decode(a, d) for a, d in zip(args, data, strict=True))
    if origin is dict:
        key_type, value_type = typing.get_args(tp)
        if not isinstance(data, dict):
            raise TypeError(f"expected an object, got {data!r}")
        return {decode(key_type, int(k) if key_type is int else k): decode(value_type, v)
                for k, v in data.items()}
    if tp is Any:
        return data
    if isinstance(tp, type):
        if issubclass(tp, Enum):
            return tp(data)
        if tp is bool:
            if not isinstance(data, bool):
                raise TypeError(f"expected true/false, got {data!r}")
            return data
        if tp is int:
            if isinstance(data, bool) or not isinstance(data, int):
                raise TypeError(f"expected a whole number, got {data!r}")
            return data
        if tp is str:
            if not isinstance(data, str):
                raise TypeError(f"expected text, got {data!r}")
            return data
        if tp is Card:
            return Card.parse(data)
        if tp is Fraction:
            if not isinstance(data, str):
                raise TypeError(f"expected a ratio like '19/20', got {data!r}")
            return Fraction(data)
        if dataclasses.is_dataclass(tp):
            if not isinstance(data, dict):
                raise TypeError(f"expected an object for {tp.__name__}, got {data!r}")
            hints = _HINTS.get(tp)
            if hints is None:
                hints = _HINTS[tp] = typing.get_type_hints(tp)
            kwargs = {
                f.name: decode(hints[f.name], data[f.name])
                for f in dataclasses.fields(tp)
                if f.init and (f.name in data or (f.default is dataclasses.MISSING
                                               and f.default_factory is dataclasses.MISSING))
            }
            return tp(**kwargs)
    raise TypeError(f"cannot read a {tp!r} from the journal")
