"""The Shifts area: the month roster as a grid of teachers by days, its toolbar, legend and empty page, the shift and
classroom dialogs, copying a shift to other days, CSV import and export, and the roster edits that Ctrl+Z takes
back."""
