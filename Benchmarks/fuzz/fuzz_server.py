# Mutation fuzzing of a running layoutd (loopback, 1,500 requests, seeded): documents, ops,
# constants, garbage bodies and queries. Prints the status counts; the server must stay up
# and answer no 5xx.  Usage: python3 Benchmarks/fuzz/fuzz_server.py [PORT]
import json, os, random, http.client, sys
PORT = int(sys.argv[1]) if len(sys.argv) > 1 else 8096
random.seed(7)
base = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'http', 'cell.json')))
nums = [0, -1, 1e308, -1e308, 1e-320, 3.5, 1e20, -0.0, 2**63, 1000, 1001, 0.5]
strs = ["", "x", "cell.width", "avatar.leading", "|", "H:|-[avatar]-|", "a" * 300, "\u00e9", "[", "(>=", "@", "cell.frame.x", "V:[x(==y)]", "title.width == 1e308 * avatar.width"]
def mutate(v, depth=0):
    r = random.random()
    if isinstance(v, dict):
        v = dict(v)
        if v and r < 0.3: v.pop(random.choice(list(v)))
        if r > 0.8: v[random.choice(["id","parent","expr","visual","frame","constant","multiplier","priority","options","hidden","x"])] = mutate(random.choice(nums + strs + [None, [], {}]), depth+1)
        for k in list(v):
            if random.random() < 0.3: v[k] = mutate(v[k], depth+1)
        return v
    if isinstance(v, list):
        v = [mutate(x, depth+1) if random.random() < 0.3 else x for x in v]
        if v and r < 0.2: v.pop(random.randrange(len(v)))
        if r > 0.9: v = v + v[:1]
        return v
    if isinstance(v, (int, float)) and not isinstance(v, bool): return random.choice(nums) if r < 0.5 else v
    if isinstance(v, str): return random.choice(strs) if r < 0.3 else v
    return random.choice(nums + strs + [None, True]) if r < 0.2 else v
c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
stats = {}
def req(m, p, body=None, h=None):
    global c
    try:
        c.request(m, p, body=body, headers=h or {"Content-Type": "application/json"})
        r = c.getresponse(); data = r.read()
        stats[r.status] = stats.get(r.status, 0) + 1
        return r.status, data
    except Exception as e:
        stats['exc:' + type(e).__name__] = stats.get('exc:' + type(e).__name__, 0) + 1
        c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
        return 0, b""
sessions = []
for i in range(1500):
    k = random.random()
    if k < 0.35:
        st, data = req("POST", "/v1/sessions", json.dumps(mutate(base)))
        if st == 201: sessions.append(json.loads(data)["session"])
    elif k < 0.5:
        req("POST", "/v1/layout", json.dumps(mutate(base)))
    elif k < 0.6:
        req("POST", "/v1/sessions", bytes(random.getrandbits(8) for _ in range(random.randint(0, 200))))
    elif sessions:
        s = random.choice(sessions)
        if k < 0.75:
            req("POST", f"/v1/sessions/{s}/constants", json.dumps({random.choice(["lead", "c1", "c2", "ghost", "cell.frame.x", "c3.0"]): random.choice(nums + ["x", None, [1]])}))
        elif k < 0.9:
            ops = [mutate({"op": random.choice(["addViews","removeViews","updateView","addConstraints","removeConstraints","setConstant","setPriority","activate","deactivate","setOptions"]),
                           "id": random.choice(["avatar","title","lead","c1","cell"]), "ids": [random.choice(["avatar","title","lead","c1","cell","body"])],
                           "views": [{"id": "n%d" % i, "parent": random.choice(["cell","avatar",None,"zz"])}],
                           "constraints": [mutate(random.choice(base["constraints"]))], "constant": random.choice(nums), "priority": random.choice(nums),
                           "options": {"layoutDirection": random.choice(["rtl","ltr","x"]), "scale": random.choice(nums)}, "hidden": True, "frame": None}) for _ in range(random.randint(1,3))]
            req("POST", f"/v1/sessions/{s}/changes", json.dumps({"ops": ops}))
        else:
            req("GET", random.choice([f"/v1/sessions/{s}", f"/v1/sessions/{s}/trace", f"/v1/sessions/{s}/frames?since={random.choice([0,1,-1,'x',99999])}", f"/v1/sessions/{s}/explain?view=avatar&axis=vertical", f"/v1/sessions/{s}/explain?view=%00"]))
            req("POST", f"/v1/sessions/{s}/exercise-ambiguity", b"")
print(stats, "sessions", len(sessions))
