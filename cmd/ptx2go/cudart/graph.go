package main

// #include "cudart.h"
import "C"

import (
	"encoding/binary"
	"slices"
	"unsafe"

	"github.com/ptx2go/ptx2go/runtime"
)

// CUDA graphs: a graph is a set of operations (kernel launches, copies, memsets, host
// functions, child graphs) with dependencies between them, built node by node
// (cudaGraphAdd*Node) or by capturing what a program issues to streams
// (cudaStreamBeginCapture ... cudaStreamEndCapture). Every stream of the drop-in runs its work
// when it is issued, so a launched graph (cudaGraphLaunch) runs its nodes one after another in
// an order that respects the dependencies, before cudaGraphLaunch returns.

// The cudaGraphNodeType values of the nodes the drop-in makes.
const (
	nodeKernel = 0
	nodeMemcpy = 1
	nodeMemset = 2
	nodeHost   = 3
	nodeGraph  = 4
	nodeEmpty  = 5
)

// The cudaStreamCaptureStatus values.
const (
	captureNone   = 0
	captureActive = 1
)

// The cudaGraphExecUpdateResult values cudaGraphExecUpdate reports.
const (
	updateSuccess         = 0
	updateTopologyChanged = 2
	updateNodeTypeChanged = 3
)

// graphOp is the operation of a graph node. Operations are values that do not change once
// made, so cloned graphs and instantiated graphs share them.
type graphOp interface {
	// run performs the operation and returns its error.
	run() cudaError
	// nodeType is the node's cudaGraphNodeType.
	nodeType() C.int
}

// kernelOp launches a kernel with parameter values copied when the node was made.
type kernelOp struct {
	k           *kernel
	grid, block runtime.Dim3
	shared      int
	params      []byte
	cooperative bool
}

func (o kernelOp) run() cudaError {
	return ret(o.k.launch(o.grid, o.block, o.shared, o.params, o.cooperative))
}
func (kernelOp) nodeType() C.int { return nodeKernel }

// copyOp is a linear copy (cudaMemcpyAsync, cudaGraphAddMemcpyNode1D).
type copyOp struct {
	dst, src unsafe.Pointer
	n        int
	kind     C.int
}

func (o copyOp) run() cudaError { return memcpy(o.dst, o.src, o.n, o.kind) }
func (copyOp) nodeType() C.int  { return nodeMemcpy }

// copy3DOp is a 3D copy between pitched pointers and arrays (cudaGraphAddMemcpyNode,
// cudaMemcpy3DAsync).
type copy3DOp struct{ p C.struct_cudaMemcpy3DParms }

func (o copy3DOp) run() cudaError { return memcpy3D(&o.p) }
func (copy3DOp) nodeType() C.int  { return nodeMemcpy }

// copy2DOp is a 2D copy (cudaMemcpy2DAsync).
type copy2DOp struct {
	dst, src             unsafe.Pointer
	dpitch, spitch, w, h C.size_t
	kind                 C.int
}

func (o copy2DOp) run() cudaError {
	return memcpy2D(o.dst, o.dpitch, o.src, o.spitch, o.w, o.h, o.kind)
}
func (copy2DOp) nodeType() C.int { return nodeMemcpy }

// setOp fills 1-, 2- or 4-byte elements (cudaGraphAddMemsetNode, cudaMemsetAsync,
// cudaMemset2DAsync).
type setOp struct{ p C.struct_cudaMemsetParams }

func (o setOp) run() cudaError { return memsetElements(&o.p) }
func (setOp) nodeType() C.int  { return nodeMemset }

// hostOp calls a host function (cudaGraphAddHostNode, cudaLaunchHostFunc) or a stream
// callback (cudaStreamAddCallback, which also gets its stream and the error status).
type hostOp struct {
	fn, data unsafe.Pointer
	callback bool
	stream   unsafe.Pointer
}

func (o hostOp) run() cudaError {
	if o.callback {
		C.ptx2go_call_stream_callback(o.fn, o.stream, stickyErr(), o.data)
	} else {
		C.ptx2go_call_host_fn(o.fn, o.data)
	}
	return success
}
func (hostOp) nodeType() C.int { return nodeHost }

// emptyOp does nothing: a node that only orders others.
type emptyOp struct{}

func (emptyOp) run() cudaError  { return success }
func (emptyOp) nodeType() C.int { return nodeEmpty }

// childOp runs a graph of its own (cudaGraphAddChildGraphNode, cudaGraphLaunch while
// capturing): a copy of the child made when the node was.
type childOp struct{ g *graph }

func (o childOp) run() cudaError {
	for _, n := range o.g.order() {
		if e := n.op.run(); e != success {
			return e
		}
	}
	return success
}
func (childOp) nodeType() C.int { return nodeGraph }

// graphNode is a cudaGraphNode_t: an operation and the nodes it depends on.
type graphNode struct {
	handle unsafe.Pointer
	graph  *graph
	op     graphOp
	deps   []*graphNode
}

// graph is a cudaGraph_t. Its nodes are in the order they were added.
type graph struct {
	handle unsafe.Pointer
	nodes  []*graphNode
}

// graphExec is a cudaGraphExec_t: a snapshot of a graph's nodes in the order they run.
type graphExec struct {
	nodes []*graphNode
	// orig is the graph node each of nodes was made from, for cudaGraphExec*NodeSetParams.
	orig []*graphNode
}

// capture is a stream capture in progress: the graph being built, the stream that began it
// and, for each stream taking part, the nodes its next operation depends on.
type capture struct {
	graph  *graph
	origin uintptr
	tails  map[uintptr][]*graphNode
	// depsBuf is the C array of node handles cudaStreamGetCaptureInfo_v2 last returned.
	depsBuf unsafe.Pointer
}

// newGraph makes an empty graph with a handle.
func newGraph() *graph {
	g := &graph{handle: handle()}
	state.mu.Lock()
	state.graphs[uintptr(g.handle)] = g
	state.mu.Unlock()
	return g
}

// add appends a node running op after deps. The caller holds state.mu.
func (g *graph) add(op graphOp, deps []*graphNode) *graphNode {
	n := &graphNode{handle: handle(), graph: g, op: op, deps: slices.Clone(deps)}
	g.nodes = append(g.nodes, n)
	state.nodes[uintptr(n.handle)] = n
	return n
}

// order returns the graph's nodes in an order that runs every node after its dependencies,
// keeping the order they were added in where the dependencies allow (Kahn's algorithm).
func (g *graph) order() []*graphNode {
	index := make(map[*graphNode]int, len(g.nodes))
	for i, n := range g.nodes {
		index[n] = i
	}
	waiting := make([]int, len(g.nodes))
	users := make([][]int, len(g.nodes))
	for i, n := range g.nodes {
		for _, d := range n.deps {
			if j, ok := index[d]; ok {
				waiting[i]++
				users[j] = append(users[j], i)
			}
		}
	}
	var ready []int
	for i, w := range waiting {
		if w == 0 {
			ready = append(ready, i)
		}
	}
	out := make([]*graphNode, 0, len(g.nodes))
	for len(ready) > 0 {
		slices.Sort(ready)
		i := ready[0]
		ready = ready[1:]
		out = append(out, g.nodes[i])
		for _, u := range users[i] {
			if waiting[u]--; waiting[u] == 0 {
				ready = append(ready, u)
			}
		}
	}
	return out
}

// clone copies the graph's nodes (sharing their operations) into a new graph without a
// handle, returning it and the copy of each node. The caller holds state.mu.
func (g *graph) clone() (*graph, map[*graphNode]*graphNode) {
	c := &graph{}
	copies := make(map[*graphNode]*graphNode, len(g.nodes))
	for _, n := range g.nodes {
		m := &graphNode{graph: c, op: n.op}
		for _, d := range n.deps {
			m.deps = append(m.deps, copies[d])
		}
		copies[n] = m
		c.nodes = append(c.nodes, m)
	}
	return c, copies
}

// instantiate makes the executable form of g. The caller holds state.mu.
func (g *graph) instantiate() *graphExec {
	order := g.order()
	x := &graphExec{orig: order}
	for _, n := range order {
		x.nodes = append(x.nodes, &graphNode{op: n.op})
	}
	return x
}

// locked runs f holding state.mu (f must not call ret, which takes it too).
func locked(f func() cudaError) cudaError {
	state.mu.Lock()
	defer state.mu.Unlock()
	return f()
}

// lookupGraph returns the graph of handle h. The caller holds state.mu.
func lookupGraph(h unsafe.Pointer) *graph { return state.graphs[uintptr(h)] }

// lookupNode returns the node of handle h. The caller holds state.mu.
func lookupNode(h unsafe.Pointer) *graphNode { return state.nodes[uintptr(h)] }

// nodeList returns the nodes of the n handles at deps, or false if one is not a node of g.
// The caller holds state.mu.
func nodeList(g *graph, deps unsafe.Pointer, n C.size_t) ([]*graphNode, bool) {
	if n == 0 {
		return nil, true
	}
	if deps == nil {
		return nil, false
	}
	var out []*graphNode
	for _, h := range unsafe.Slice((*unsafe.Pointer)(deps), int(n)) {
		d := lookupNode(h)
		if d == nil || d.graph != g {
			return nil, false
		}
		out = append(out, d)
	}
	return out, true
}

// addNode adds a node running op to graph g after the n nodes at deps and returns its handle
// in *node.
func addNode(node *unsafe.Pointer, g unsafe.Pointer, deps unsafe.Pointer, n C.size_t, op graphOp) cudaError {
	state.mu.Lock()
	defer state.mu.Unlock()
	gr := lookupGraph(g)
	if gr == nil || node == nil {
		return errInvalidValue
	}
	ds, ok := nodeList(gr, deps, n)
	if !ok {
		return errInvalidValue
	}
	*node = gr.add(op, ds).handle
	return success
}

// kernelNodeOp makes the operation of a kernel node from its parameters, copying the
// parameter values.
func kernelNodeOp(p *C.struct_cudaKernelNodeParams) (graphOp, cudaError) {
	k := lookupKernel(p._func)
	if k == nil {
		return nil, errInvalidDeviceFunction
	}
	if code := k.resolve(); code != success {
		return nil, code
	}
	var params []byte
	switch {
	case p.kernelParams != nil:
		params = k.packParams(unsafe.Pointer(p.kernelParams))
	case p.extra != nil:
		var code cudaError
		if params, code = k.extraParams(unsafe.Pointer(p.extra)); code != success {
			return nil, code
		}
	case len(k.prm) > 0:
		return nil, errInvalidValue
	}
	return kernelOp{k: k, grid: dim(p.gridDim), block: dim(p.blockDim), shared: int(p.sharedMemBytes), params: params}, success
}

// memcpy3D copies extent between pitched pointers and CUDA arrays (memcpy3DArray, texture.go).
// Without CUDA arrays the extent's width is in bytes; row (y, z) of a pointer starts at ptr +
// ((pos.z+z)*ysize + pos.y+y)*pitch + pos.x.
func memcpy3D(p *C.struct_cudaMemcpy3DParms) cudaError {
	if p.srcArray != nil || p.dstArray != nil {
		return memcpy3DArray(p)
	}
	e := p.extent
	if e.width == 0 || e.height == 0 || e.depth == 0 {
		return check()
	}
	rowStart := func(pp C.struct_cudaPitchedPtr, pos C.struct_cudaPos, y, z C.size_t) (unsafe.Pointer, bool) {
		if pos.x+e.width > pp.pitch || (e.depth > 1 && pos.y+e.height > pp.ysize) {
			return nil, false
		}
		return unsafe.Add(pp.ptr, ((pos.z+z)*pp.ysize+pos.y+y)*pp.pitch+pos.x), true
	}
	for z := C.size_t(0); z < e.depth; z++ {
		for y := C.size_t(0); y < e.height; y++ {
			src, ok1 := rowStart(p.srcPtr, p.srcPos, y, z)
			dst, ok2 := rowStart(p.dstPtr, p.dstPos, y, z)
			if !ok1 || !ok2 {
				return ret(errInvalidPitchValue)
			}
			if code := memcpy(dst, src, int(e.width), p.kind); code != success {
				return code
			}
		}
	}
	return success
}

// memsetElements fills height rows, pitch bytes apart, of width elements of elementSize
// bytes (1, 2 or 4) with value.
func memsetElements(p *C.struct_cudaMemsetParams) cudaError {
	size, width := int(p.elementSize), int(p.width)
	if size != 1 && size != 2 && size != 4 {
		return ret(errInvalidValue)
	}
	if p.height > 1 && p.pitch < C.size_t(width*size) {
		return ret(errInvalidPitchValue)
	}
	if width == 0 || p.height == 0 {
		return check()
	}
	row := make([]byte, width*size)
	for i := 0; i < width; i++ {
		switch size {
		case 1:
			row[i] = byte(p.value)
		case 2:
			binary.LittleEndian.PutUint16(row[2*i:], uint16(p.value))
		case 4:
			binary.LittleEndian.PutUint32(row[4*i:], uint32(p.value))
		}
	}
	for r := C.size_t(0); r < p.height; r++ {
		if code := memcpy(unsafe.Add(p.dst, r*p.pitch), unsafe.Pointer(&row[0]), len(row), copyDefault); code != success {
			return code
		}
	}
	return success
}

// captureOf returns the capture stream s takes part in, or nil. The caller holds state.mu.
func captureOf(s unsafe.Pointer) *capture { return state.captures[uintptr(s)] }

// capturing reports whether stream s is capturing into a graph.
func capturing(s unsafe.Pointer) bool {
	state.mu.Lock()
	defer state.mu.Unlock()
	return captureOf(s) != nil
}

// captured adds op to the graph stream s is capturing into, after the stream's previous
// operations, and reports whether s is capturing: the operation then runs when the graph is
// launched, not now.
func captured(s unsafe.Pointer, op graphOp) bool {
	state.mu.Lock()
	defer state.mu.Unlock()
	c := captureOf(s)
	if c == nil {
		return false
	}
	n := c.graph.add(op, c.tails[uintptr(s)])
	c.tails[uintptr(s)] = []*graphNode{n}
	return true
}

// recordCaptured marks event ev as recorded by capturing stream s: a stream that waits for it
// joins the capture after the stream's operations so far. It reports whether s is capturing.
// The caller holds state.mu.
func recordCaptured(ev *event, s unsafe.Pointer) bool {
	c := captureOf(s)
	if c == nil {
		ev.capture, ev.captured = nil, nil
		return false
	}
	ev.capture, ev.captured = c, slices.Clone(c.tails[uintptr(s)])
	return true
}

// waitCaptured makes stream s wait for an event recorded in a capture: s joins the capture
// (or, already in it, its next operation also depends on the event's nodes). It reports
// whether the event was recorded in a capture. The caller holds state.mu.
func waitCaptured(s unsafe.Pointer, ev *event) (bool, cudaError) {
	c := ev.capture
	if c == nil {
		return false, success
	}
	if other := captureOf(s); other != nil && other != c {
		return true, errStreamCaptureUnsupported
	}
	if uintptr(s) <= 2 {
		return true, errStreamCaptureUnsupported
	}
	state.captures[uintptr(s)] = c
	tail := c.tails[uintptr(s)]
	for _, n := range ev.captured {
		if !slices.Contains(tail, n) {
			tail = append(tail, n)
		}
	}
	c.tails[uintptr(s)] = tail
	return true, success
}

//export cudaStreamBeginCapture
func cudaStreamBeginCapture(s unsafe.Pointer, mode C.int) (r C.int) {
	defer guard("cudaStreamBeginCapture", &r)()
	if uintptr(s) <= 2 {
		return ret(errStreamCaptureUnsupported)
	}
	if !validStream(s) {
		return ret(errInvalidResourceHandle)
	}
	g := newGraph()
	return ret(locked(func() cudaError {
		if captureOf(s) != nil {
			return errInvalidValue
		}
		state.captures[uintptr(s)] = &capture{graph: g, origin: uintptr(s), tails: map[uintptr][]*graphNode{}}
		return success
	}))
}

// cudaStreamEndCapture ends the capture stream s began and returns its graph; every stream
// that joined the capture stops capturing.
//
//export cudaStreamEndCapture
func cudaStreamEndCapture(s unsafe.Pointer, g *unsafe.Pointer) (r C.int) {
	defer guard("cudaStreamEndCapture", &r)()
	return ret(locked(func() cudaError {
		c := captureOf(s)
		if c == nil || c.origin != uintptr(s) {
			return errStreamCaptureUnmatched
		}
		for st, other := range state.captures {
			if other == c {
				delete(state.captures, st)
			}
		}
		C.free(c.depsBuf)
		*g = c.graph.handle
		return success
	}))
}

//export cudaStreamIsCapturing
func cudaStreamIsCapturing(s unsafe.Pointer, status *C.int) (r C.int) {
	defer guard("cudaStreamIsCapturing", &r)()
	if !validStream(s) {
		return ret(errInvalidResourceHandle)
	}
	*status = captureNone
	if capturing(s) {
		*status = captureActive
	}
	return success
}

//export cudaStreamGetCaptureInfo
func cudaStreamGetCaptureInfo(s unsafe.Pointer, status *C.int, id *C.ulonglong) (r C.int) {
	defer guard("cudaStreamGetCaptureInfo", &r)()
	return cudaStreamGetCaptureInfo_v2(s, status, id, nil, nil, nil)
}

// cudaStreamGetCaptureInfo_v2 reports whether s is capturing and, if it is, the capture's id
// (its graph's handle), its graph and the nodes the stream's next operation will depend on
// (valid until the stream's next operation).
//
//export cudaStreamGetCaptureInfo_v2
func cudaStreamGetCaptureInfo_v2(s unsafe.Pointer, status *C.int, id *C.ulonglong, g *unsafe.Pointer, deps **unsafe.Pointer, n *C.size_t) (r C.int) {
	defer guard("cudaStreamGetCaptureInfo_v2", &r)()
	if !validStream(s) {
		return ret(errInvalidResourceHandle)
	}
	return ret(locked(func() cudaError {
		c := captureOf(s)
		*status = captureNone
		if c == nil {
			return success
		}
		*status = captureActive
		if id != nil {
			*id = C.ulonglong(uintptr(c.graph.handle))
		}
		if g != nil {
			*g = c.graph.handle
		}
		if deps != nil && n != nil {
			tail := c.tails[uintptr(s)]
			*n = C.size_t(len(tail))
			*deps = nil
			C.free(c.depsBuf)
			c.depsBuf = nil
			if len(tail) > 0 {
				c.depsBuf = C.malloc(C.size_t(len(tail)) * C.size_t(unsafe.Sizeof(unsafe.Pointer(nil))))
				arr := unsafe.Slice((*unsafe.Pointer)(c.depsBuf), len(tail))
				for i, t := range tail {
					arr[i] = t.handle
				}
				*deps = (*unsafe.Pointer)(c.depsBuf)
			}
		}
		return success
	}))
}

// cudaThreadExchangeStreamCaptureMode swaps the calling thread's capture mode. Captures here
// never forbid other calls, so the mode is only kept.
//
//export cudaThreadExchangeStreamCaptureMode
func cudaThreadExchangeStreamCaptureMode(mode *C.int) (r C.int) {
	defer guard("cudaThreadExchangeStreamCaptureMode", &r)()
	state.mu.Lock()
	*mode, state.captureMode = state.captureMode, *mode
	state.mu.Unlock()
	return success
}

//export cudaGraphCreate
func cudaGraphCreate(g *unsafe.Pointer, flags C.uint) (r C.int) {
	defer guard("cudaGraphCreate", &r)()
	*g = newGraph().handle
	return success
}

//export cudaGraphDestroy
func cudaGraphDestroy(g unsafe.Pointer) (r C.int) {
	defer guard("cudaGraphDestroy", &r)()
	return ret(locked(func() cudaError {
		gr := lookupGraph(g)
		if gr == nil {
			return errInvalidValue
		}
		for _, n := range gr.nodes {
			delete(state.nodes, uintptr(n.handle))
			C.free(n.handle)
		}
		delete(state.graphs, uintptr(g))
		C.free(g)
		return success
	}))
}

//export cudaGraphAddKernelNode
func cudaGraphAddKernelNode(node *unsafe.Pointer, g, deps unsafe.Pointer, n C.size_t, p *C.struct_cudaKernelNodeParams) (r C.int) {
	defer guard("cudaGraphAddKernelNode", &r)()
	op, code := kernelNodeOp(p)
	if code != success {
		return ret(code)
	}
	return ret(addNode(node, g, deps, n, op))
}

//export cudaGraphAddMemcpyNode
func cudaGraphAddMemcpyNode(node *unsafe.Pointer, g, deps unsafe.Pointer, n C.size_t, p *C.struct_cudaMemcpy3DParms) (r C.int) {
	defer guard("cudaGraphAddMemcpyNode", &r)()
	return ret(addNode(node, g, deps, n, copy3DOp{*p}))
}

//export cudaGraphAddMemcpyNode1D
func cudaGraphAddMemcpyNode1D(node *unsafe.Pointer, g, deps unsafe.Pointer, n C.size_t, dst, src unsafe.Pointer, count C.size_t, kind C.int) (r C.int) {
	defer guard("cudaGraphAddMemcpyNode1D", &r)()
	return ret(addNode(node, g, deps, n, copyOp{dst, src, int(count), kind}))
}

//export cudaGraphAddMemsetNode
func cudaGraphAddMemsetNode(node *unsafe.Pointer, g, deps unsafe.Pointer, n C.size_t, p *C.struct_cudaMemsetParams) (r C.int) {
	defer guard("cudaGraphAddMemsetNode", &r)()
	if p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4 {
		return ret(errInvalidValue)
	}
	return ret(addNode(node, g, deps, n, setOp{*p}))
}

//export cudaGraphAddHostNode
func cudaGraphAddHostNode(node *unsafe.Pointer, g, deps unsafe.Pointer, n C.size_t, p *C.struct_cudaHostNodeParams) (r C.int) {
	defer guard("cudaGraphAddHostNode", &r)()
	if p.fn == nil {
		return ret(errInvalidValue)
	}
	return ret(addNode(node, g, deps, n, hostOp{fn: p.fn, data: p.userData}))
}

//export cudaGraphAddEmptyNode
func cudaGraphAddEmptyNode(node *unsafe.Pointer, g, deps unsafe.Pointer, n C.size_t) (r C.int) {
	defer guard("cudaGraphAddEmptyNode", &r)()
	return ret(addNode(node, g, deps, n, emptyOp{}))
}

// cudaGraphAddChildGraphNode adds a node that runs a copy of child, made now.
//
//export cudaGraphAddChildGraphNode
func cudaGraphAddChildGraphNode(node *unsafe.Pointer, g, deps unsafe.Pointer, n C.size_t, child unsafe.Pointer) (r C.int) {
	defer guard("cudaGraphAddChildGraphNode", &r)()
	state.mu.Lock()
	ch := lookupGraph(child)
	var cl *graph
	if ch != nil {
		cl, _ = ch.clone()
	}
	state.mu.Unlock()
	if ch == nil {
		return ret(errInvalidValue)
	}
	return ret(addNode(node, g, deps, n, childOp{cl}))
}

//export cudaGraphAddDependencies
func cudaGraphAddDependencies(g, from, to unsafe.Pointer, n C.size_t) (r C.int) {
	defer guard("cudaGraphAddDependencies", &r)()
	return ret(locked(func() cudaError {
		gr := lookupGraph(g)
		if gr == nil {
			return errInvalidValue
		}
		fs, ok1 := nodeList(gr, from, n)
		ts, ok2 := nodeList(gr, to, n)
		if !ok1 || !ok2 {
			return errInvalidValue
		}
		for i := range fs {
			if !slices.Contains(ts[i].deps, fs[i]) {
				ts[i].deps = append(ts[i].deps, fs[i])
			}
		}
		return success
	}))
}

// handleList writes the handles of nodes to out, which has room for *n of them: when out is
// NULL it only sets *n; otherwise it fills min(*n, len) entries, NULL the rest, and sets *n
// to len(nodes).
func handleList(nodes []*graphNode, out unsafe.Pointer, n *C.size_t) {
	if out != nil {
		arr := unsafe.Slice((*unsafe.Pointer)(out), int(*n))
		for i := range arr {
			arr[i] = nil
			if i < len(nodes) {
				arr[i] = nodes[i].handle
			}
		}
	}
	*n = C.size_t(len(nodes))
}

//export cudaGraphGetNodes
func cudaGraphGetNodes(g, nodes unsafe.Pointer, n *C.size_t) (r C.int) {
	defer guard("cudaGraphGetNodes", &r)()
	return ret(locked(func() cudaError {
		gr := lookupGraph(g)
		if gr == nil {
			return errInvalidValue
		}
		handleList(gr.nodes, nodes, n)
		return success
	}))
}

//export cudaGraphGetRootNodes
func cudaGraphGetRootNodes(g, nodes unsafe.Pointer, n *C.size_t) (r C.int) {
	defer guard("cudaGraphGetRootNodes", &r)()
	return ret(locked(func() cudaError {
		gr := lookupGraph(g)
		if gr == nil {
			return errInvalidValue
		}
		var roots []*graphNode
		for _, nd := range gr.nodes {
			if len(nd.deps) == 0 {
				roots = append(roots, nd)
			}
		}
		handleList(roots, nodes, n)
		return success
	}))
}

//export cudaGraphNodeGetType
func cudaGraphNodeGetType(node unsafe.Pointer, t *C.int) (r C.int) {
	defer guard("cudaGraphNodeGetType", &r)()
	return ret(locked(func() cudaError {
		nd := lookupNode(node)
		if nd == nil {
			return errInvalidValue
		}
		*t = nd.op.nodeType()
		return success
	}))
}

//export cudaGraphKernelNodeSetParams
func cudaGraphKernelNodeSetParams(node unsafe.Pointer, p *C.struct_cudaKernelNodeParams) (r C.int) {
	defer guard("cudaGraphKernelNodeSetParams", &r)()
	op, code := kernelNodeOp(p)
	if code != success {
		return ret(code)
	}
	return ret(locked(func() cudaError {
		nd := lookupNode(node)
		if nd == nil || nd.op.nodeType() != nodeKernel {
			return errInvalidValue
		}
		nd.op = op
		return success
	}))
}

//export cudaGraphClone
func cudaGraphClone(clone *unsafe.Pointer, g unsafe.Pointer) (r C.int) {
	defer guard("cudaGraphClone", &r)()
	return ret(locked(func() cudaError {
		gr := lookupGraph(g)
		if gr == nil {
			return errInvalidValue
		}
		c, _ := gr.clone()
		c.handle = handle()
		for _, n := range c.nodes {
			n.handle = handle()
			state.nodes[uintptr(n.handle)] = n
		}
		state.graphs[uintptr(c.handle)] = c
		*clone = c.handle
		return success
	}))
}

//export cudaGraphInstantiate
func cudaGraphInstantiate(exec *unsafe.Pointer, g unsafe.Pointer, errNode *unsafe.Pointer, log *C.char, logSize C.size_t) (r C.int) {
	defer guard("cudaGraphInstantiate", &r)()
	return cudaGraphInstantiateWithFlags(exec, g, 0)
}

//export cudaGraphInstantiateWithFlags
func cudaGraphInstantiateWithFlags(exec *unsafe.Pointer, g unsafe.Pointer, flags C.ulonglong) (r C.int) {
	defer guard("cudaGraphInstantiateWithFlags", &r)()
	return ret(locked(func() cudaError {
		gr := lookupGraph(g)
		if gr == nil {
			return errInvalidValue
		}
		h := handle()
		state.execs[uintptr(h)] = gr.instantiate()
		*exec = h
		return success
	}))
}

//export cudaGraphExecDestroy
func cudaGraphExecDestroy(exec unsafe.Pointer) (r C.int) {
	defer guard("cudaGraphExecDestroy", &r)()
	return ret(locked(func() cudaError {
		if state.execs[uintptr(exec)] == nil {
			return errInvalidValue
		}
		delete(state.execs, uintptr(exec))
		C.free(exec)
		return success
	}))
}

// cudaGraphLaunch runs the instantiated graph's nodes in order; launched into a capturing
// stream, it becomes a child graph node of the capture.
//
//export cudaGraphLaunch
func cudaGraphLaunch(exec, s unsafe.Pointer) (r C.int) {
	defer guard("cudaGraphLaunch", &r)()
	if !validStream(s) {
		return ret(errInvalidResourceHandle)
	}
	state.mu.Lock()
	x := state.execs[uintptr(exec)]
	state.mu.Unlock()
	if x == nil {
		return ret(errInvalidValue)
	}
	child := childOp{&graph{nodes: x.nodes}}
	if captured(s, child) {
		return success
	}
	if e := check(); e != success {
		return e
	}
	return child.run()
}

//export cudaGraphUpload
func cudaGraphUpload(exec, s unsafe.Pointer) (r C.int) {
	defer guard("cudaGraphUpload", &r)()
	state.mu.Lock()
	x := state.execs[uintptr(exec)]
	state.mu.Unlock()
	if x == nil {
		return ret(errInvalidValue)
	}
	return check()
}

//export cudaGraphExecKernelNodeSetParams
func cudaGraphExecKernelNodeSetParams(exec, node unsafe.Pointer, p *C.struct_cudaKernelNodeParams) (r C.int) {
	defer guard("cudaGraphExecKernelNodeSetParams", &r)()
	op, code := kernelNodeOp(p)
	if code != success {
		return ret(code)
	}
	return ret(locked(func() cudaError {
		x, nd := state.execs[uintptr(exec)], lookupNode(node)
		if x == nil || nd == nil {
			return errInvalidValue
		}
		i := slices.Index(x.orig, nd)
		if i < 0 || x.nodes[i].op.nodeType() != nodeKernel {
			return errInvalidValue
		}
		x.nodes[i].op = op
		return success
	}))
}

// cudaGraphExecUpdate gives the instantiated graph the operations of g's nodes when g has the
// same nodes (types and dependencies, in the same order) as the graph it was made from;
// otherwise it reports what changed and leaves it as it was.
//
//export cudaGraphExecUpdate
func cudaGraphExecUpdate(exec, g unsafe.Pointer, errNode *unsafe.Pointer, result *C.int) (r C.int) {
	defer guard("cudaGraphExecUpdate", &r)()
	return ret(locked(func() cudaError {
		x, gr := state.execs[uintptr(exec)], lookupGraph(g)
		if x == nil || gr == nil {
			return errInvalidValue
		}
		order := gr.order()
		fail := func(n *graphNode, why C.int) C.int {
			if errNode != nil && n != nil {
				*errNode = n.handle
			}
			*result = why
			return errGraphExecUpdateFailure
		}
		if len(order) != len(x.orig) {
			return fail(nil, updateTopologyChanged)
		}
		pos := func(list []*graphNode, deps []*graphNode) []int {
			var out []int
			for _, d := range deps {
				out = append(out, slices.Index(list, d))
			}
			slices.Sort(out)
			return out
		}
		for i, n := range order {
			if n.op.nodeType() != x.nodes[i].op.nodeType() {
				return fail(n, updateNodeTypeChanged)
			}
			if !slices.Equal(pos(order, n.deps), pos(x.orig, x.orig[i].deps)) {
				return fail(n, updateTopologyChanged)
			}
		}
		for i, n := range order {
			x.nodes[i].op = n.op
		}
		x.orig = order
		*result = updateSuccess
		return success
	}))
}

// cudaMemcpy3D copies between pitched pointers and CUDA arrays.
//
//export cudaMemcpy3D
func cudaMemcpy3D(p *C.struct_cudaMemcpy3DParms) (r C.int) {
	defer guard("cudaMemcpy3D", &r)()
	flushDeviceOutput()
	if e := check(); e != success {
		return e
	}
	return memcpy3D(p)
}

//export cudaMemcpy3DAsync
func cudaMemcpy3DAsync(p *C.struct_cudaMemcpy3DParms, s unsafe.Pointer) (r C.int) {
	defer guard("cudaMemcpy3DAsync", &r)()
	if captured(s, copy3DOp{*p}) {
		return success
	}
	if e := check(); e != success {
		return e
	}
	return memcpy3D(p)
}
