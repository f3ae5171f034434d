"""What teachers read: message text rendered from editable templates, LINE text and Flex bubbles
(texts), and the e-mail subject, text and HTML (email_text). Rendering is pure: facts in, text out. It
may import the roster (for wall times), the store and the foundation modules.
"""
