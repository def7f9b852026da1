"""Understanding what a person types for their time zone: a city, a country, an IANA
name ("Europe/Berlin") or a UTC offset ("+2", "UTC-5", "+5:30", "UTC+5:45", "-3:30").

A zone is stored by name.  Whole-hour offsets are the IANA ``Etc/GMT`` zones; offsets
with minutes have no IANA name, so they are stored as ``UTC+05:30`` and read back as a
fixed :class:`datetime.timezone`.  :func:`load_zone` is the one place a stored name
becomes a ``tzinfo`` (with :mod:`zoneinfo`)."""

from __future__ import annotations

import re
import zoneinfo
from dataclasses import dataclass
from datetime import timedelta, timezone, tzinfo
from functools import cache

#: Common cities and countries (lower case) -> IANA zone.  Anything else is matched
#: against the zone names themselves ("lisbon" -> Europe/Lisbon).
CITIES: dict[str, str] = {
    # Europe
    "london": "Europe/London", "uk": "Europe/London", "united kingdom": "Europe/London",
    "england": "Europe/London", "scotland": "Europe/London", "wales": "Europe/London",
    "manchester": "Europe/London", "birmingham": "Europe/London", "glasgow": "Europe/London",
    "edinburgh": "Europe/London", "dublin": "Europe/Dublin", "ireland": "Europe/Dublin",
    "lisbon": "Europe/Lisbon", "portugal": "Europe/Lisbon", "porto": "Europe/Lisbon",
    "madrid": "Europe/Madrid", "spain": "Europe/Madrid", "barcelona": "Europe/Madrid",
    "paris": "Europe/Paris", "france": "Europe/Paris", "lyon": "Europe/Paris",
    "marseille": "Europe/Paris", "brussels": "Europe/Brussels", "belgium": "Europe/Brussels",
    "amsterdam": "Europe/Amsterdam", "netherlands": "Europe/Amsterdam",
    "rotterdam": "Europe/Amsterdam", "berlin": "Europe/Berlin", "germany": "Europe/Berlin",
    "hamburg": "Europe/Berlin", "munich": "Europe/Berlin", "münchen": "Europe/Berlin",
    "cologne": "Europe/Berlin", "köln": "Europe/Berlin", "frankfurt": "Europe/Berlin",
    "stuttgart": "Europe/Berlin", "zurich": "Europe/Zurich", "zürich": "Europe/Zurich",
    "geneva": "Europe/Zurich", "switzerland": "Europe/Zurich", "vienna": "Europe/Vienna",
    "wien": "Europe/Vienna", "austria": "Europe/Vienna", "rome": "Europe/Rome",
    "italy": "Europe/Rome", "milan": "Europe/Rome", "naples": "Europe/Rome",
    "copenhagen": "Europe/Copenhagen", "denmark": "Europe/Copenhagen",
    "oslo": "Europe/Oslo", "norway": "Europe/Oslo", "stockholm": "Europe/Stockholm",
    "sweden": "Europe/Stockholm", "helsinki": "Europe/Helsinki", "finland": "Europe/Helsinki",
    "warsaw": "Europe/Warsaw", "poland": "Europe/Warsaw", "krakow": "Europe/Warsaw",
    "prague": "Europe/Prague", "czechia": "Europe/Prague", "budapest": "Europe/Budapest",
    "hungary": "Europe/Budapest", "bucharest": "Europe/Bucharest", "romania": "Europe/Bucharest",
    "sofia": "Europe/Sofia", "bulgaria": "Europe/Sofia", "athens": "Europe/Athens",
    "greece": "Europe/Athens", "istanbul": "Europe/Istanbul", "turkey": "Europe/Istanbul",
    "ankara": "Europe/Istanbul", "kyiv": "Europe/Kyiv", "kiev": "Europe/Kyiv",
    "ukraine": "Europe/Kyiv", "moscow": "Europe/Moscow", "riga": "Europe/Riga",
    "vilnius": "Europe/Vilnius", "tallinn": "Europe/Tallinn", "belgrade": "Europe/Belgrade",
    "zagreb": "Europe/Zagreb", "ljubljana": "Europe/Ljubljana", "bratislava": "Europe/Bratislava",
    "reykjavik": "Atlantic/Reykjavik", "iceland": "Atlantic/Reykjavik",
    # Americas
    "new york": "America/New_York", "nyc": "America/New_York", "boston": "America/New_York",
    "washington": "America/New_York", "dc": "America/New_York", "miami": "America/New_York",
    "atlanta": "America/New_York", "philadelphia": "America/New_York",
    "toronto": "America/Toronto", "montreal": "America/Toronto", "ottawa": "America/Toronto",
    "detroit": "America/Detroit", "chicago": "America/Chicago", "houston": "America/Chicago",
    "dallas": "America/Chicago", "austin": "America/Chicago", "new orleans": "America/Chicago",
    "minneapolis": "America/Chicago", "winnipeg": "America/Winnipeg",
    "denver": "America/Denver", "calgary": "America/Edmonton", "edmonton": "America/Edmonton",
    "phoenix": "America/Phoenix", "arizona": "America/Phoenix",
    "los angeles": "America/Los_Angeles", "la": "America/Los_Angeles",
    "san francisco": "America/Los_Angeles", "seattle": "America/Los_Angeles",
    "portland": "America/Los_Angeles", "las vegas": "America/Los_Angeles",
    "san diego": "America/Los_Angeles", "vancouver": "America/Vancouver",
    "anchorage": "America/Anchorage", "alaska": "America/Anchorage",
    "honolulu": "Pacific/Honolulu", "hawaii": "Pacific/Honolulu",
    "halifax": "America/Halifax", "mexico city": "America/Mexico_City",
    "mexico": "America/Mexico_City", "bogota": "America/Bogota", "colombia": "America/Bogota",
    "lima": "America/Lima", "peru": "America/Lima", "santiago": "America/Santiago",
    "chile": "America/Santiago", "buenos aires": "America/Argentina/Buenos_Aires",
    "argentina": "America/Argentina/Buenos_Aires", "sao paulo": "America/Sao_Paulo",
    "são paulo": "America/Sao_Paulo", "rio": "America/Sao_Paulo",
    "rio de janeiro": "America/Sao_Paulo", "brazil": "America/Sao_Paulo",
    "caracas": "America/Caracas", "havana": "America/Havana",
    # Africa and the Middle East
    "cairo": "Africa/Cairo", "egypt": "Africa/Cairo", "lagos": "Africa/Lagos",
    "nigeria": "Africa/Lagos", "nairobi": "Africa/Nairobi", "kenya": "Africa/Nairobi",
    "johannesburg": "Africa/Johannesburg", "cape town": "Africa/Johannesburg",
    "south africa": "Africa/Johannesburg", "casablanca": "Africa/Casablanca",
    "morocco": "Africa/Casablanca", "accra": "Africa/Accra", "ghana": "Africa/Accra",
    "addis ababa": "Africa/Addis_Ababa", "tel aviv": "Asia/Jerusalem",
    "jerusalem": "Asia/Jerusalem", "israel": "Asia/Jerusalem", "beirut": "Asia/Beirut",
    "amman": "Asia/Amman", "riyadh": "Asia/Riyadh", "saudi arabia": "Asia/Riyadh",
    "dubai": "Asia/Dubai", "abu dhabi": "Asia/Dubai", "uae": "Asia/Dubai",
    "doha": "Asia/Qatar", "tehran": "Asia/Tehran", "iran": "Asia/Tehran",
    # Asia and Oceania
    "karachi": "Asia/Karachi", "pakistan": "Asia/Karachi", "delhi": "Asia/Kolkata",
    "new delhi": "Asia/Kolkata", "mumbai": "Asia/Kolkata", "bangalore": "Asia/Kolkata",
    "bengaluru": "Asia/Kolkata", "chennai": "Asia/Kolkata", "india": "Asia/Kolkata",
    "kathmandu": "Asia/Kathmandu", "dhaka": "Asia/Dhaka", "bangladesh": "Asia/Dhaka",
    "bangkok": "Asia/Bangkok", "thailand": "Asia/Bangkok", "jakarta": "Asia/Jakarta",
    "singapore": "Asia/Singapore", "kuala lumpur": "Asia/Kuala_Lumpur",
    "manila": "Asia/Manila", "philippines": "Asia/Manila", "hong kong": "Asia/Hong_Kong",
    "beijing": "Asia/Shanghai", "shanghai": "Asia/Shanghai", "china": "Asia/Shanghai",
    "taipei": "Asia/Taipei", "seoul": "Asia/Seoul", "korea": "Asia/Seoul",
    "tokyo": "Asia/Tokyo", "osaka": "Asia/Tokyo", "japan": "Asia/Tokyo",
    "hanoi": "Asia/Ho_Chi_Minh", "ho chi minh city": "Asia/Ho_Chi_Minh",
    "perth": "Australia/Perth", "adelaide": "Australia/Adelaide",
    "darwin": "Australia/Darwin", "brisbane": "Australia/Brisbane",
    "sydney": "Australia/Sydney", "canberra": "Australia/Sydney",
    "melbourne": "Australia/Melbourne", "hobart": "Australia/Hobart",
    "auckland": "Pacific/Auckland", "wellington": "Pacific/Auckland",
    "new zealand": "Pacific/Auckland",
    "utc": "UTC", "gmt": "UTC",
}  # fmt: skip

_OFFSET = re.compile(r"^(?:utc|gmt)?\s*([+-])\s*(\d{1,2})(?:[:.h]?(\d{2}))?$")
#: A stored offset with minutes: "UTC+05:30".
_FIXED = re.compile(r"^UTC([+-])(\d{2}):(\d{2})$")
#: The minutes real offsets carry (India +5:30, Nepal +5:45, Newfoundland -3:30, ...).
OFFSET_MINUTES = (0, 30, 45)


@dataclass(frozen=True)
class ZoneGuess:
    zone: str  # IANA name, e.g. "Europe/Berlin" or "Etc/GMT-2"
    shown: str  # what we tell the user we understood
    fixed_offset: bool = False  # a UTC offset: does not follow daylight saving


@cache
def _zones() -> dict[str, str]:
    """lower-case key -> IANA name, for full names and for their last part."""
    names = sorted(zoneinfo.available_timezones())
    by_key: dict[str, str] = {}
    for name in names:
        by_key.setdefault(name.lower(), name)
    for name in names:
        if name.startswith(("Etc/", "SystemV/", "US/", "posix/", "right/")):
            continue
        city = name.rsplit("/", 1)[-1].lower().replace("_", " ")
        by_key.setdefault(city, name)
    return by_key


def load_zone(name: str) -> tzinfo | None:
    """The zone a stored name stands for, or ``None`` when it is not one."""
    fixed = _FIXED.match(name)
    if fixed:
        sign, hours, minutes = fixed.group(1), int(fixed.group(2)), int(fixed.group(3))
        if minutes not in OFFSET_MINUTES or not _in_range(sign, hours, minutes):
            return None
        delta = timedelta(hours=hours, minutes=minutes)
        return timezone(delta if sign == "+" else -delta, shown_name(name))
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


def valid_zone(name: str) -> bool:
    return load_zone(name) is not None


def is_fixed_offset(name: str) -> bool:
    """A UTC offset rather than a place: it does not follow daylight saving."""
    return name.startswith("Etc/GMT") or _FIXED.match(name) is not None


def find_zone(text: str) -> ZoneGuess | None:
    """What ``text`` most likely means, or ``None``."""
    key = " ".join(text.strip().lower().replace("_", " ").split())
    key = key.removeprefix("in ").strip(" .!")
    if not key:
        return None
    offset = _OFFSET.match(key.replace(" ", ""))
    if offset:
        return _from_offset(offset.group(1), int(offset.group(2)), offset.group(3))
    if key in CITIES:
        zone = CITIES[key]
        return ZoneGuess(zone, zone)
    zones = _zones()
    for candidate in (key, key.replace(" ", "_")):
        if candidate in zones:
            return ZoneGuess(zones[candidate], zones[candidate])
    return None


def _in_range(sign: str, hours: int, minutes: int) -> bool:
    """Real offsets run from UTC-12 to UTC+14."""
    total = hours * 60 + minutes
    return total <= (14 * 60 if sign == "+" else 12 * 60)


def _from_offset(sign: str, hours: int, minutes: str | None) -> ZoneGuess | None:
    mins = int(minutes or 0)
    if mins not in OFFSET_MINUTES or not _in_range(sign, hours, mins):
        return None
    if hours == 0 and mins == 0:
        return ZoneGuess("UTC", "UTC")
    if mins:
        zone = f"UTC{sign}{hours:02d}:{mins:02d}"
        return ZoneGuess(zone, shown_name(zone), fixed_offset=True)
    # The Etc/GMT zones have inverted signs: UTC+2 is Etc/GMT-2.
    zone = f"Etc/GMT{'-' if sign == '+' else '+'}{hours}"
    return ZoneGuess(zone, f"UTC{sign}{hours}", fixed_offset=True)


def shown_name(zone: str) -> str:
    """How we show a stored zone: "UTC+2" for Etc/GMT-2, "UTC+5:30" for UTC+05:30, the
    IANA name otherwise."""
    fixed = _FIXED.match(zone)
    if fixed:
        return f"UTC{fixed.group(1)}{int(fixed.group(2))}:{fixed.group(3)}"
    match = re.fullmatch(r"Etc/GMT([+-])(\d{1,2})", zone)
    if match:
        return f"UTC{'-' if match.group(1) == '+' else '+'}{match.group(2)}"
    return zone
