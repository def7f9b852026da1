"""Reading what an image says: the OCR (:mod:`bot.reading.ocr`) and the layout of a chat
screenshot (:mod:`bot.reading.layout`)."""
