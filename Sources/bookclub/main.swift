print("bookclub")
