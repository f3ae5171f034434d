"""What teachers read: the channel-neutral message a kind composes once (message), message text
rendered from editable templates, LINE text and Flex bubbles
(texts), the e-mail subject, text and HTML (email_text), and the 了解 button with its signed postback
data (ack). Rendering is pure: facts in, text out. It
may import the roster (for wall times), the store and the foundation modules.
"""
