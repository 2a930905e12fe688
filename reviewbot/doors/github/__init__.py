"""The GitHub door: Actions context, API client, idempotent publishing."""
