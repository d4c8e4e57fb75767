"""The stakelog/1 session-log format: typed records, the streaming reader, the JSON Schema."""
