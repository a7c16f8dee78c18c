"""The foundation every concern stands on: input checks, kinds of label, class codes."""
