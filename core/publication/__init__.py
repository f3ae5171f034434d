"""Publishing a month to the teachers' LINE group: publish and dry run (publish), the revision history
(history), the month image (month_image: the wide grid; month_pages: the pages for phones; fonts),
content-addressed image files (image_store) and the S3-compatible hosting LINE needs (hosting). It may
import planning and everything below it; never alerts, sending, setup or app.
"""
