"""平台义务: the platform's own duties as an online-game operator, checked from its records.

Pure: the duty rows (`rows.py`), the calendar and ages (`calendar.py`), one module
per group of checks, and the engine that feeds them sessions, accounts, ledger
events and configuration and collects `DutyFinding`s (`engine.py`). The legal
basis of each check is in docs/platform-duties.md.
"""
