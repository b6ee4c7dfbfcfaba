print("clipbridge")
