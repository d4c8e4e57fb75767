"""Storage: ORM rows, the unit of work, migrations and seeding."""
