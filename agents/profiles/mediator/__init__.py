"""The mediator profile: a shared space where named participants talk to a neutral mediator
that replies privately or posts to everyone."""
