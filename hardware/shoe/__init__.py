"""Card shoe and shuffler driver (spec docs/protocols/shoe-shuffler.md).

Dialects turn bytes into `hardware.events` values; `ShoeReader` runs one on a serial URL.
"""

from hardware.shoe.line_dialect import LineParser, checksum, encode_frame
from hardware.shoe.plain_dialect import PlainParser
from hardware.shoe.reader import DIALECTS, ShoeReader, make_parser
from hardware.shoe.stats import DialectParser, ParserStats

__all__ = [
    "DIALECTS",
    "DialectParser",
    "LineParser",
    "ParserStats",
    "PlainParser",
    "ShoeReader",
    "checksum",
    "encode_frame",
    "make_parser",
]
