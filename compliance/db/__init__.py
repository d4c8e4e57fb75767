"""Storage adapters: ORM rows, the SQL unit of work and its repositories, bulk loading,
migrations."""
