"""Use cases over one abstract unit of work: audit, rules, back-test, reports; runners."""
