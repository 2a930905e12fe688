"""The application: configuration, the one review pipeline, the inspection queries."""
