"""Test-only ports of peer tools' area-of-effect rules, to compare aoegrid with them."""
