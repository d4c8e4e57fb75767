"""节假日与年龄: the statutory-holiday and 调休 calendar, local days and ages in Asia/Shanghai.

The calendar is the `chinesecalendar` package's (its holidays and the weekend days
made working days, 调休, as the State Council publishes them each year). A day
outside the years it covers has no answer: `DayKind.UNKNOWN`, and a check that
needs it is indeterminate.
"""

from __future__ import annotations

import enum
from datetime import date, datetime, time, timedelta
from importlib.metadata import version
from zoneinfo import ZoneInfo

import chinese_calendar
from chinese_calendar import constants

SHANGHAI = ZoneInfo("Asia/Shanghai")
BEIJING_OFFSET = timedelta(hours=8)
LAST_SUMMER_TIME = 1991
CALENDAR = f"chinesecalendar {version('chinesecalendar')}"
FIRST_DAY = min(constants.holidays)
LAST_YEAR = max(constants.holidays).year
LAST_DAY = date(LAST_YEAR, 12, 31)
YEARS = f"{FIRST_DAY.year}–{LAST_YEAR}"


class DayKind(enum.Enum):
    HOLIDAY = "holiday"  # 法定节假日 (and the days off around it)
    WEEKEND = "weekend"  # Saturday or Sunday off
    ADJUSTED = "adjusted"  # 调休: a Saturday or Sunday made a working day
    WORKDAY = "workday"
    UNKNOWN = "unknown"  # outside the calendar's years


def covered(day: date) -> bool:
    return FIRST_DAY.year <= day.year <= LAST_YEAR


def day_kind(day: date) -> DayKind:
    """What the calendar says of a day."""
    if not covered(day):
        return DayKind.UNKNOWN
    if day in constants.holidays:
        return DayKind.HOLIDAY
    weekend = day.weekday() >= 5
    if chinese_calendar.is_workday(day):
        return DayKind.ADJUSTED if weekend else DayKind.WORKDAY
    return DayKind.WEEKEND if weekend else DayKind.HOLIDAY


def local(at: datetime) -> datetime:
    """A zoned time as Beijing time."""
    return at.astimezone(SHANGHAI)


def local_day(at: datetime) -> date:
    """The Beijing day of a zoned time; a time already at +08:00 after 1991 (when China
    last kept summer time) is its own day, without a zone conversion."""
    if at.utcoffset() == BEIJING_OFFSET and at.year > LAST_SUMMER_TIME:
        return at.date()
    return local(at).date()


def month_of(day: date) -> str:
    """`YYYY-MM`, the period a month's findings are gathered under."""
    found = _MONTHS.get(day)
    if found is None:
        found = _MONTHS[day] = f"{day.year:04d}-{day.month:02d}"
    return found


_MONTHS: dict[date, str] = {}


def age_at(birth: date, at: datetime) -> int:
    """周岁: whole years from the birth date to the local (Beijing) day of `at`; one born on
    29 February turns a year older on 1 March of a common year."""
    return age_on(birth, local_day(at))


def age_on(birth: date, day: date) -> int:
    """周岁 on a Beijing day."""
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def at_local(day: date, clock: time) -> datetime:
    return datetime.combine(day, clock, SHANGHAI)


def days_of(start: datetime, end: datetime) -> list[date]:
    """The local days an interval [start, end] touches, in order."""
    first, last = local_day(start), local_day(end)
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]
