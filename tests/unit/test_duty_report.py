"""The platform-duties section in the CSV and HTML reports (reporting/duty_render.py):
the CSV table's exact text, the HTML cells' bilingual labels, the held checks' instruments
read from the duty book."""

from __future__ import annotations

from datetime import date

from compliance.domain.duties.engine import DutyAudit, DutyOptions
from compliance.reporting.duties import duty_section
from compliance.reporting.duty_render import csv_section, html_section
from compliance.reporting.labels import Labels
from tests.unit.duties.builders import BOOK, account, cap, confirm, mode, pay, settle
from tests.unit.duties.test_round_checks import SHARE_ROUNDS, sitting, table


def section(book=BOOK):
    audit = DutyAudit(
        BOOK,
        DutyOptions(date(2022, 6, 1)),
        [account()],
        [mode(round_cap=10**6, day_cap=10**7), cap(648)],
        True,
    )
    for e in (
        pay("p1", "2022-03-01 10:00", "648.01"),
        confirm("c1", "p1", "2022-03-01 10:01"),
        settle("s1", "2022-03-01 10:00", 100),
    ):
        audit.event(e)
    audit.sitting(sitting(SHARE_ROUNDS))
    audit.sitting(sitting([table({"a": 1, "b": -1})], owner=None, sid="s2"))
    found = audit.finish()
    return duty_section(found, audit.statuses(), book)


NOTICE = "公通字〔2007〕3号 关于规范网络游戏经营秩序查禁利用网络游戏赌博的通知 三 (H)"
CSV = f"""
platform_duties,number,check,label,status,violation,signal,advisory,missing,instruments,duty,severity,subject,date,metric,value,cap,detail,events
check,6,minor_payments,未成年人充值限额 minors' payment caps,held,0,0,0,,国新出发〔2019〕34号 国家新闻出版署关于防止未成年人沉迷网络游戏的通知 三 (H),,,,,,,,,
check,9,outcome_fees,与输赢相关的佣金 fees that depend on the outcome,breached,1,0,0,"session fee data (owner.room_fee, a round's rake): sessions whose log names no owner's fee and no rake: what was charged is unknown (1)",{NOTICE},,,,,,,,,
check,10,point_caps,输赢积分上限 per-round and per-day point caps,held,0,0,0,,{NOTICE},,,,,,,,,
check,15,recharge_cap,单次充值上限与确认 single-recharge cap and confirmations,breached,1,0,0,,文市发〔2016〕32号 文化部关于规范网络游戏运营加强事中事后监管工作的通知 (十二) (L),,,,,,,,,
check,21,retention,记录留存 record retention,indeterminate,0,0,0,platform-config features: whether transfers are a feature (and their log must be kept) is not given (1); platform-config retention consumption: the oldest consumption record held is not given (1); platform-config retention logins: the oldest logins record held is not given (1); platform-config retention recharges: the oldest recharges record held is not given (1); platform-config retention sessions: the oldest sessions record held is not given (1),中华人民共和国网络安全法 第二十三条第三项 (2025 numbering; 第二十一条第三项 before) (H); 文市发〔2009〕20号 关于加强网络游戏虚拟货币管理工作的通知 (七) (L); 文市发〔2009〕20号 关于加强网络游戏虚拟货币管理工作的通知 (十八) (L); 文市发〔2016〕32号 文化部关于规范网络游戏运营加强事中事后监管工作的通知 (七) (L); 文市发〔2016〕32号 文化部关于规范网络游戏运营加强事中事后监管工作的通知 (十二) (L); 网络游戏管理办法（草案征求意见稿）2023-12-22 第二十三条 (H),,,,,,,,,
case,9,outcome_fees,与输赢相关的佣金 fees that depend on the outcome,,,,,,,fee-share-2007,violation,room:r1,2022-03,rake_percent_of_winnings,3.00,,rake about 3.0 % of the winnings (1 session),s1#1
case,15,recharge_cap,单次充值上限与确认 single-recharge cap and confirmations,,,,,,,recharge-cap-2016,violation,account:a1,2022-03,recharge_yuan,648.01,648,1 × recharge_yuan,p1
"""


def test_the_csv_section_is_a_table_of_its_own_after_a_blank_line():
    assert csv_section(section()) == CSV


def test_a_held_check_names_the_instruments_of_its_rows_from_the_book():
    lines = {line["check"]: line for line in section()}
    assert lines["point_caps"]["status"] == "held"
    assert lines["point_caps"]["instruments"] == [
        ("公通字〔2007〕3号 关于规范网络游戏经营秩序查禁利用网络游戏赌博的通知", "三", "H")
    ]
    without_book = {line["check"]: line for line in section(book=None)}
    assert without_book["point_caps"]["instruments"] == []


def test_the_html_cells_are_bilingual_in_either_order():
    zh = html_section(section(), Labels("zh"))
    en = html_section(section(), Labels("en"))
    assert zh["title"] == "平台义务 Platform duties" and en["title"] == "Platform duties (平台义务)"
    fees = next(c for c in zh["checks"] if c["code"] == "outcome_fees")
    assert fees["title"] == "9. 与输赢相关的佣金 fees that depend on the outcome"
    assert (fees["status_label"], fees["counts"]) == ("已违反 breached", "违规 violation 1")
    assert fees["missing"][0].endswith("what was charged is unknown (1 例 1 case)")
    assert fees["instruments"] == [f"{NOTICE[:-4]} (H 高 high)"]
    held = next(c for c in en["checks"] if c["code"] == "point_caps")
    assert (held["status_label"], held["counts"]) == ("held (已遵守)", "no breach (无违反)")
    case = zh["cases"][0]
    assert (case["duty"], case["severity_label"], case["events"]) == (
        "fee-share-2007",
        "违规 violation",
        "s1#1",
    )
    assert case["figure"] == "rake_percent_of_winnings 3"
