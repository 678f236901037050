print("maprules: CLI pending")
