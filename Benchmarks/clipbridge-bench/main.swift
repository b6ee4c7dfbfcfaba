print("clipbridge-bench")
