"""Placeholder: filled in by its chapter (see kappalib/widgets/__init__.py)."""

__all__: list[str] = []
