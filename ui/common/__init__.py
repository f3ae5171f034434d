"""Pieces every area shares and none owns: how a date is written, Japanese and English (Qt translations and core's
catalog messages), errors as one plain sentence, word-wrapped labels, the zoomable image preview, the month picker
of the Shifts and Publish areas, the dialog whose OK waits for its background work, and small explanatory widgets."""
