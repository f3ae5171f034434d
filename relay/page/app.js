"use strict"; // The teachers page script (replaced by the page itself).
