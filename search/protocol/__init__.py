"""The front ends: UCI and XBoard over one session core (:mod:`.session`), the
warm-up before the first timed move, and strength on request (:mod:`.strength`).
Importing them is cheap: the compiled search loads when a game needs it."""
