"""Renderers: findings as they stream out of an audit, and reports of stored runs."""
