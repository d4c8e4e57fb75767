"""The domain: metrics, tiers, thresholds and the classifier. Pure: no SQLAlchemy, no click."""
