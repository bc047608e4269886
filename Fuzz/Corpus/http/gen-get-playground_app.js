GET /playground/app.js

