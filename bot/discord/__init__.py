"""Discord pieces shared by every cog: the error handler, base views, formatting."""
