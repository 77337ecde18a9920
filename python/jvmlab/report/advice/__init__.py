"""Views of advice: terminal (rich), Markdown, JSON, and the findings section of the HTML reports."""
