"""The draft month's solver, pure: a problem (lesson slots, days, staffing needs, teachers' limits and
answers, fixed shifts) in, a draft (shifts, what is left uncovered and why, how sure it is) out.

May import the texts and the foundation (errors); never the store, the roster or anything above, so a
problem file, the benchmark and the window's draft flow all use it alike. `problem` is the data,
`model` the 0-1 model, `solver` the search (HiGHS), `explain` the reasons, `files` the JSON forms.
"""
