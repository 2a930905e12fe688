"""Jinja2 templates (PR summary, inline comments, Markdown report), shipped as reviewbot.templates."""
