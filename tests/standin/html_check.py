"""Telegram-style HTML parsing for the Bot API stand-in.

A Python port of the parse_html() routine of TDLib (td/telegram/MessageEntity.cpp), which is
what the real Bot API server runs on ``parse_mode=HTML``. It returns the visible text and the
message entities, or raises :class:`HtmlParseError` with the same wording Telegram uses after
"can't parse entities: " (byte offsets are UTF-8 byte offsets into the sent text).

One deliberate difference, on by default (``strict_ampersand``): real Telegram passes a bare
"&" that does not start a known entity through unchanged, although the Bot API documentation
requires it to be escaped. The stand-in rejects it so that unescaped user text is caught in tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ALLOWED_TAGS = frozenset(
    {
        "a",
        "b",
        "strong",
        "i",
        "em",
        "s",
        "strike",
        "del",
        "u",
        "ins",
        "tg-spoiler",
        "tg-emoji",
        "tg-time",
        "span",
        "pre",
        "code",
        "blockquote",
    }
)

_NAMED_ENTITIES = {b"lt": ord("<"), b"gt": ord(">"), b"amp": ord("&"), b"quot": ord('"')}
_SPACES = b" \t\r\n\v\f"
_NAME_TOKEN_CHARS = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")


class HtmlParseError(ValueError):
    """The text is not valid Telegram HTML; ``str(err)`` is Telegram's reason."""


@dataclass(frozen=True)
class ParsedText:
    """Visible text and Bot API ``MessageEntity`` dicts (UTF-16 offsets), sorted like Telegram."""

    text: str
    entities: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class _OpenTag:
    name: str
    argument: str
    utf16_offset: int
    result_pos: int


def _is_space(byte: int) -> bool:
    # TDLib's is_space() also treats the terminating NUL as a space.
    return byte in _SPACES or byte == 0


def _decode_entity(data: bytes, pos: int) -> tuple[int, int]:
    """Decode an HTML entity starting at ``data[pos] == '&'``: (code point or 0, next pos)."""
    end = pos + 1
    code = 0
    if _at(data, end) == ord("#"):
        end += 1
        if _at(data, end) == ord("x"):
            end += 1
            while chr(_at(data, end)) in "0123456789abcdefABCDEF" and _at(data, end):
                code = code * 16 + int(chr(data[end]), 16)
                end += 1
        else:
            while ord("0") <= _at(data, end) <= ord("9"):
                code = code * 10 + data[end] - ord("0")
                end += 1
        if code == 0 or code >= 0x10FFFF or end - pos >= 10:
            return 0, pos
    else:
        while chr(_at(data, end)).isascii() and chr(_at(data, end)).isalpha():
            end += 1
        named = _NAMED_ENTITIES.get(data[pos + 1 : end])
        if named is None:
            return 0, pos
        code = named
    if _at(data, end) == ord(";"):
        end += 1
    return code, end


def _at(data: bytes, pos: int) -> int:
    return data[pos] if pos < len(data) else 0


def _utf16_len_of_code_point(code: int) -> int:
    return 2 if code > 0xFFFF else 1


def parse_html(text: str, *, strict_ampersand: bool = True) -> ParsedText:
    """Parse Telegram HTML; raise HtmlParseError("Unsupported start tag ...") like Telegram."""
    data = text.encode("utf-8")
    size = len(data)
    out = bytearray()
    entities: list[dict[str, Any]] = []
    stack: list[_OpenTag] = []
    utf16 = 0
    i = 0
    while i < size:
        c = data[i]
        if c == ord("&"):
            code, end = _decode_entity(data, i)
            if code != 0:
                utf16 += _utf16_len_of_code_point(code)
                out += chr(code).encode("utf-8", "surrogatepass")
                i = end
                continue
            if strict_ampersand:
                raise HtmlParseError(
                    f'Character "&" must be escaped as "&amp;" at byte offset {i} '
                    "(stand-in strict mode; real Telegram would pass it through)"
                )
        if c != ord("<"):
            if c & 0xC0 != 0x80:  # first byte of a UTF-8 sequence
                utf16 += 2 if c >= 0xF0 else 1
            out.append(c)
            i += 1
            continue

        begin = i
        i += 1
        if _at(data, i) != ord("/"):
            i = _parse_start_tag(data, begin, i, stack, utf16, len(out))
        else:
            i = _parse_end_tag(data, begin, i, stack, entities, utf16, out)
        i += 1  # skip '>'
    if stack:
        raise HtmlParseError(f'Can\'t find end tag corresponding to start tag "{stack[-1].name}"')
    for entity in entities:
        if entity["type"] == "code":
            entity.pop("language", None)
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return ParsedText(out.decode("utf-8", "surrogatepass"), entities)


def _parse_start_tag(
    data: bytes, begin: int, i: int, stack: list[_OpenTag], utf16: int, result_pos: int
) -> int:
    while not _is_space(_at(data, i)) and _at(data, i) != ord(">"):
        i += 1
    if _at(data, i) == 0:
        raise HtmlParseError(f"Unclosed start tag at byte offset {begin}")
    tag = data[begin + 1 : i].decode("utf-8", "replace").lower()
    if tag not in ALLOWED_TAGS:
        raise HtmlParseError(f'Unsupported start tag "{tag}" at byte offset {begin}')

    argument = ""
    while _at(data, i) != ord(">"):
        while _at(data, i) != 0 and _is_space(data[i]):
            i += 1
        if _at(data, i) == ord(">"):
            break
        attr_begin = i
        while not _is_space(_at(data, i)) and _at(data, i) not in b"=>/\"'":
            i += 1
        attr_name = data[attr_begin:i].decode("utf-8", "replace")
        if not attr_name:
            raise HtmlParseError(f'Empty attribute name in the tag "{tag}" at byte offset {begin}')
        while _at(data, i) != 0 and _is_space(data[i]):
            i += 1
        if _at(data, i) != ord("="):
            if _at(data, i) == 0:
                raise HtmlParseError(f'Unclosed start tag "{tag}" at byte offset {begin}')
            if tag == "blockquote" and attr_name == "expandable":
                argument = "1"
            continue
        i += 1
        while _at(data, i) != 0 and _is_space(data[i]):
            i += 1
        if _at(data, i) == 0:
            raise HtmlParseError(f'Unclosed start tag "{tag}" at byte offset {begin}')

        if data[i] not in b"'\"":
            token_begin = i
            while _at(data, i) in _NAME_TOKEN_CHARS:
                i += 1
            value = data[token_begin:i].decode("utf-8", "replace").lower()
            if not _is_space(_at(data, i)) and _at(data, i) != ord(">"):
                raise HtmlParseError(f"Unexpected end of name token at byte offset {token_begin}")
        else:
            quote = data[i]
            i += 1
            raw = bytearray()
            while _at(data, i) != quote and _at(data, i) != 0:
                if data[i] == ord("&"):
                    code, end = _decode_entity(data, i)
                    if code != 0:
                        raw += chr(code).encode("utf-8", "surrogatepass")
                        i = end
                        continue
                raw.append(data[i])
                i += 1
            if _at(data, i) == quote:
                i += 1
            value = raw.decode("utf-8", "replace")
        if _at(data, i) == 0:
            raise HtmlParseError(f"Unclosed start tag at byte offset {begin}")

        if tag == "a" and attr_name == "href":
            argument = value
        elif tag == "code" and attr_name == "class" and value.startswith("language-"):
            argument = value[len("language-") :]
        elif tag == "span" and attr_name == "class" and value.startswith("tg-"):
            argument = value[len("tg-") :]
        elif tag == "tg-emoji" and attr_name == "emoji-id":
            argument = value
        elif tag == "blockquote" and attr_name == "expandable":
            argument = "1"
        elif tag == "tg-time" and attr_name == "format":
            argument = value

    if tag == "span" and argument != "spoiler":
        raise HtmlParseError(f'Tag "span" must have class "tg-spoiler" at byte offset {begin}')
    stack.append(_OpenTag(tag, argument, utf16, result_pos))
    return i


def _parse_end_tag(
    data: bytes,
    begin: int,
    i: int,
    stack: list[_OpenTag],
    entities: list[dict[str, Any]],
    utf16: int,
    out: bytearray,
) -> int:
    if not stack:
        raise HtmlParseError(f"Unexpected end tag at byte offset {begin}")
    while not _is_space(_at(data, i)) and _at(data, i) != ord(">"):
        i += 1
    end_name = data[begin + 2 : i].decode("utf-8", "replace").lower()
    while _at(data, i) != 0 and _is_space(data[i]):
        i += 1
    if _at(data, i) != ord(">"):
        raise HtmlParseError(f"Unclosed end tag at byte offset {begin}")
    top = stack.pop()
    if end_name and end_name != top.name:
        raise HtmlParseError(
            f'Unmatched end tag at byte offset {begin}, expected "</{top.name}>", '
            f'found "</{end_name}>"'
        )
    if utf16 > top.utf16_offset:
        entity = _entity_for(top, utf16 - top.utf16_offset, entities, out)
        if entity is not None:
            entities.append(entity)
    return i


def _entity_for(
    top: _OpenTag, length: int, entities: list[dict[str, Any]], out: bytearray
) -> dict[str, Any] | None:
    simple = {
        "b": "bold",
        "strong": "bold",
        "i": "italic",
        "em": "italic",
        "s": "strikethrough",
        "strike": "strikethrough",
        "del": "strikethrough",
        "u": "underline",
        "ins": "underline",
        "tg-spoiler": "spoiler",
        "span": "spoiler",
    }
    entity: dict[str, Any] = {"offset": top.utf16_offset, "length": length}
    previous = entities[-1] if entities else None
    same_span = (
        previous is not None
        and previous["offset"] == top.utf16_offset
        and previous["length"] == length
    )
    if top.name in simple:
        entity["type"] = simple[top.name]
    elif top.name == "tg-emoji":
        if not top.argument.isdigit() or int(top.argument) == 0:
            raise HtmlParseError("Invalid custom emoji identifier specified")
        entity["type"] = "custom_emoji"
        entity["custom_emoji_id"] = top.argument
    elif top.name == "tg-time":
        return None
    elif top.name == "a":
        url = top.argument or out[top.result_pos :].decode("utf-8", "replace")
        if not url:
            return None
        entity["type"] = "text_link"
        entity["url"] = url
    elif top.name == "pre":
        if same_span and previous is not None and previous["type"] == "code":
            language = previous.pop("language", "")
            if language:
                previous["type"] = "pre"
                previous["language"] = language
                return None
        entity["type"] = "pre"
    elif top.name == "code":
        if same_span and previous is not None and previous["type"] == "pre" and top.argument:
            previous["language"] = top.argument
            return None
        entity["type"] = "code"
        if top.argument:
            entity["language"] = top.argument
    elif top.name == "blockquote":
        entity["type"] = "expandable_blockquote" if top.argument else "blockquote"
    else:  # pragma: no cover - ALLOWED_TAGS and this chain list the same tags
        raise AssertionError(top.name)
    return entity
