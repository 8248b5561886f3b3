// expect: error
This file has a .cu extension but holds meeting notes, not CUDA.

Agenda:
  1. Decide on the release date.
  2. Review the benchmark numbers (they look "too good").
  3. Any other business; lunch at 12:30 <-- don't forget!
