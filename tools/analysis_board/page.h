// The analysis board's one page: HTML, CSS, JavaScript and the SVG board inline, nothing fetched from
// another address. It calls the JSON API of tools/analysis_board/api.h (docs/analysis_board.md).
#pragma once

namespace yav::board {

inline const char* const kBoardPage = R"PAGE(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Yavalath board</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f4f1ea;color:#222}
header{background:#2d3a4a;color:#fff;padding:8px 16px;display:flex;gap:16px;align-items:center}
header h1{font-size:18px;margin:0}
.tabs button{background:#44566c;color:#fff;border:0;padding:6px 14px;margin-right:4px;border-radius:4px;cursor:pointer}
.tabs button.on{background:#e8b04a;color:#222}
main{display:flex;gap:16px;padding:12px;flex-wrap:wrap}
#boardbox{background:#fff;border-radius:8px;padding:6px;box-shadow:0 1px 4px #0003}
#side{flex:1;min-width:340px;max-width:560px}
.panel{background:#fff;border-radius:8px;padding:10px 12px;margin-bottom:10px;box-shadow:0 1px 4px #0002}
.panel h2{font-size:15px;margin:0 0 6px}
button{font-size:13px;padding:4px 9px;margin:2px 2px 2px 0;cursor:pointer}
input[type=text]{font-size:13px;padding:3px;width:70%}
#status{font-weight:600}
#problem,#error,#aerror{color:#b00020;white-space:pre-wrap}
#botinfo,#thinkout{font-family:ui-monospace,monospace;font-size:12px;white-space:pre-wrap}
.cell{stroke:#8a7a5a;stroke-width:1.2;cursor:pointer}
.cell:hover{stroke:#000;stroke-width:2.5}
.lbl{font-size:10px;fill:#222;pointer-events:none;text-anchor:middle}
.halo{stroke:#fff;stroke-width:3px;paint-order:stroke;font-weight:700}
.coord{font-size:8px;fill:#8a7a5a;pointer-events:none;text-anchor:middle}
.edge{font-size:10px;fill:#5d4e30;font-weight:600;pointer-events:none;text-anchor:middle}
.stone1{fill:#1f1f1f}.stone2{fill:#fafafa;stroke:#333;stroke-width:1.5}
.ply{font-size:11px;pointer-events:none;text-anchor:middle;font-weight:600}
.shipped{fill:none;stroke:#1565c0;stroke-width:4;pointer-events:none}
.repack{fill:none;stroke:#7b1fa2;stroke-width:2.5;stroke-dasharray:4 3;pointer-events:none}
.line{fill:none;stroke:#ff6f00;stroke-width:5;pointer-events:none}
.last{fill:none;stroke:#e53935;stroke-width:3;pointer-events:none}
.rank{font-size:11px;fill:#0d47a1;font-weight:700;pointer-events:none;text-anchor:middle}
table.plies{font-size:12px;border-collapse:collapse;width:100%}
table.plies td{border-bottom:1px solid #eee;padding:1px 4px}
.legend span{display:inline-block;width:26px;height:12px;margin-right:2px;vertical-align:middle}
.hidden{display:none}
</style></head><body>
<header><h1>Yavalath board</h1><div class="tabs">
<button id="tab-play" class="on">Play</button><button id="tab-watch">Watch</button><button id="tab-replay">Replay</button></div>
<span id="status"></span></header>
<main>
<div id="boardbox"><svg id="board" width="514" height="490" viewBox="0 0 514 490" role="img" aria-label="Yavalath board"></svg>
<div class="legend" style="font-size:12px;padding:2px 6px">heat map, for the player to move:
<span style="background:#d73027"></span>&le;0.3 <span style="background:#fee08b"></span>0.5 <span style="background:#1a9850"></span>&ge;0.7
&nbsp; W/L proven &nbsp; <b style="color:#1565c0">&#9711;</b> shipped book move &nbsp; <b style="color:#7b1fa2">&#9676;</b> re-pack move
<br>a cell is (x y): y its row (on both sides), x its place in the row from the left (above the top row, below the bottom row)</div></div>
<div id="side">
<div class="panel" id="p-play"><h2>Play against the bot</h2>
<button id="new1">New game as player 1</button><button id="new2">New game as player 2</button>
<button id="undo">Undo</button><button id="askbot">Ask the bot to move</button>
<div id="stealnote" class="hidden">The bot opened: you may <b>steal</b> its stone (click it) or play elsewhere.</div>
<div style="margin-top:6px"><input type="text" id="movelist" placeholder="3 2; 3 3" aria-label="move list">
<button id="setup">Set up</button><button id="copy">Copy</button></div></div>
<div class="panel hidden" id="p-watch"><h2>Watch two bots</h2>
<button id="wstart">New game</button><button id="wstep">Step</button><button id="wrun">Run</button><button id="wpause">Pause</button>
<div id="wnames"></div></div>
<div class="panel hidden" id="p-replay"><h2>Replay an arena record</h2>
<input type="file" id="recfile" accept=".jsonl,.json,.txt"> <select id="recgame"></select>
<div><button id="rfirst">|&lt;</button><button id="rprev">&lt;</button><button id="rnext">&gt;</button><button id="rlast">&gt;|</button>
<span id="rply"></span></div><div id="rinfo"></div></div>
<div class="panel" id="messages"><div id="problem"></div><div id="error"></div><div id="result"></div>
<div id="botinfo">the bot's answers show here: its move, estimate, iterations and proof</div></div>
<div class="panel"><h2>Analyse</h2>
<label><input type="checkbox" id="heat" checked> book heat map</label>
&nbsp; think for <input type="number" id="thinkms" value="1000" min="10" max="10000" style="width:70px"> ms
<button id="thinkbtn">Think</button><button id="stopbtn" disabled>Stop</button><div id="aerror"></div><div id="bookline"></div><div id="thinkout"></div></div>
<div class="panel"><h2>Moves</h2><table class="plies" id="plies"></table></div>
</div></main>
<script>
"use strict";
const R=30, W=Math.sqrt(3)*R, ROWLEN=[5,6,7,8,9,8,7,6,5];
const $=id=>document.getElementById(id);
let state=null, mode="play", analysis=null, thinkResult=null, replay={games:[],game:-1,ply:0}, running=false, busy=false;
function center(x,y){return [W*(x+Math.abs(y-4)/2)+W/2+22, 1.5*R*y+R+14];}
const COLOUR=["","black","white"];
// "player 1 (black, you)"
function seatText(s,p){return "player "+p+" ("+COLOUR[p]+", "+s.seats[p-1].name+")";}
function hexPath(cx,cy,r){let p="";for(let i=0;i<6;i++){const a=Math.PI/180*(60*i-30);p+=(i?"L":"M")+(cx+r*Math.cos(a)).toFixed(1)+","+(cy+r*Math.sin(a)).toFixed(1);}return p+"Z";}
// Values near 0.5 are most of the book: the colours span 0.3..0.7 (beyond: full red or green).
function heat(v){const s=[[215,48,39],[254,224,139],[26,152,80]];const t=Math.max(0,Math.min(1,0.5+(v-0.5)*2.5));const a=t<.5?s[0]:s[1],b=t<.5?s[1]:s[2],u=t<.5?t*2:(t-.5)*2;
 return "rgb("+a.map((c,i)=>Math.round(c+(b[i]-c)*u)).join(",")+")";}
function svg(tag,attrs,text){const e=document.createElementNS("http://www.w3.org/2000/svg",tag);for(const k in attrs)e.setAttribute(k,attrs[k]);if(text!==undefined)e.textContent=text;return e;}
function moveListOf(plies){return plies.map(p=>p[0]+" "+p[1]).join("; ");}
// Stones after a list of [x,y] moves: the player of ply i is (i%2)+1; a steal takes the stone.
// (The stolen stone keeps the number of the ply that placed it, as the viewer shows it.)
function stonesOf(moves){const m=new Map();moves.forEach((c,i)=>{const k=c[0]+","+c[1];m.set(k,{player:i%2+1,ply:m.has(k)?m.get(k).ply:i+1});});return m;}
function parseMoves(text){const n=text.split(/[\s,;]+/).filter(s=>s.length).map(Number);const out=[];for(let i=0;i+1<n.length;i+=2)out.push([n[i],n[i+1]]);return out;}
function currentMoves(){
 if(mode==="replay"){const g=replay.games[replay.game];return g?parseMoves(g.moves).slice(0,replay.ply):[];}
 return state?parseMoves(state.moves):[];}
function draw(){
 const b=$("board");b.innerHTML="";const moves=currentMoves();const stones=stonesOf(moves);
 const last=moves.length?moves[moves.length-1]:null;
 const book=analysis&&analysis.book&&$("heat").checked?analysis.book:null;const byCell=new Map();
 if(book)for(const m of book.moves)byCell.set(m.x+","+m.y,m);
 const line=new Set(((mode==="replay"?analysis&&analysis.deciding_line:state&&state.deciding_line)||[]).map(c=>c[0]+","+c[1]));
 const ranks=new Map();let stealLabel=null;if(thinkResult)thinkResult.top.forEach((m,i)=>ranks.set(m.x+","+m.y,i+1));
 for(let y=0;y<9;y++)for(let x=0;x<ROWLEN[y];x++){
  const [cx,cy]=center(x,y),key=x+","+y,st=stones.get(key),m=byCell.get(key);
  let fill="#ecdcb0";if(m)fill=m.proof==="win"?"#006d2c":m.proof==="loss"?"#7f0000":heat(m.value);
  const g=svg("g",{"data-cell":key});
  const cell=svg("path",{d:hexPath(cx,cy,R-1),class:"cell",style:"fill:"+fill,id:"c"+x+"_"+y});
  let tip="("+x+" "+y+")";
  if(m)tip+=" value "+m.value+" bounds "+m.lower+".."+m.upper+(m.proof?" proven "+m.proof:"")+" | deep "+(m.deep_proof||m.deep)+" ("+m.visits+" visits)"+(m.searched?" [searched]":"")+(m.steal?" steal":"");
  cell.appendChild(svg("title",{},tip));
  cell.addEventListener("click",()=>clickCell(x,y));g.appendChild(cell);
  if(st){g.appendChild(svg("circle",{cx:cx,cy:cy,r:R*(m?0.45:0.62),class:"stone"+st.player,"pointer-events":"none"}));
   g.appendChild(svg("text",{x:cx,y:cy+4,class:"ply",fill:st.player===1?"#fff":"#000"},String(st.ply)));}
  else g.appendChild(svg("text",{x:cx,y:cy+R*0.75,class:"coord"},x+" "+y));
  if(m){const t=m.proof==="win"?"W":m.proof==="loss"?"L":m.value.toFixed(2).replace(/^0/,"");
   const label=svg("text",{x:cx,y:st?cy-R*0.55:cy-2,class:"lbl",style:m.proof?"fill:#fff;font-weight:700;font-size:13px":""},t);
   if(st)stealLabel=label;else g.appendChild(label);
   if(!m.proof&&!st)g.appendChild(svg("text",{x:cx,y:cy+9,class:"lbl","font-size":"8"},m.lower.toFixed(2).replace(/^0/,"")+"-"+m.upper.toFixed(2).replace(/^0/,"")));}
  b.appendChild(g);
  if(book&&book.shipped&&book.shipped[0]===x&&book.shipped[1]===y)b.appendChild(svg("path",{d:hexPath(cx,cy,R-5),class:"shipped"}));
  if(book&&book.repack&&book.repack[0]===x&&book.repack[1]===y)b.appendChild(svg("path",{d:hexPath(cx,cy,R-9),class:"repack"}));
  if(last&&last[0]===x&&last[1]===y)b.appendChild(svg("circle",{cx:cx,cy:cy,r:R*0.7,class:"last"}));
  if(line.has(key))b.appendChild(svg("path",{d:hexPath(cx,cy,R-3),class:"line"}));
  if(stealLabel){stealLabel.setAttribute("class","lbl halo");b.appendChild(stealLabel);stealLabel=null;}
 }
 // The coordinates on the edges: each row's y at both ends, x above the top row and below the bottom one.
 for(let y=0;y<9;y++){const [lx,cy]=center(0,y),[rx]=center(ROWLEN[y]-1,y);
  b.appendChild(svg("text",{x:lx-W/2-8,y:cy+4,class:"edge"},String(y)));b.appendChild(svg("text",{x:rx+W/2+8,y:cy+4,class:"edge"},String(y)));}
 for(let x=0;x<5;x++){const [tx,ty]=center(x,0),[bx,by]=center(x,8);
  b.appendChild(svg("text",{x:tx,y:ty-R-2,class:"edge"},String(x)));b.appendChild(svg("text",{x:bx,y:by+R+11,class:"edge"},String(x)));}
 // The think's ranks last, above the rings, centred in the cell's upper half (the value and
 // bounds fill its middle).
 for(const [key,rank] of ranks){const [x,y]=key.split(",").map(Number),[cx,cy]=center(x,y);
  b.appendChild(svg("text",{x:cx,y:cy-R*0.42,class:"rank halo","data-cell":key},"#"+rank));}
}
function fmtPly(p,i){let s=(i+1)+". P"+p.player+" "+p.x+" "+p.y+(p.steal?" (steal)":"");
 if(p.bot){s+=p.book?" book":"";if(p.iterations>=0)s+=" "+p.iterations+" it";if(p.value>=0)s+=" value "+p.value;if(p.proof)s+=" proof "+p.proof;s+=" "+p.ms+" ms";}
 return s;}
function showReplay(){
 const g=replay.games[replay.game],t=$("plies");t.innerHTML="";$("botinfo").textContent="";$("result").textContent="";$("problem").textContent="";
 if(!g){$("status").textContent="Replay: load an arena record";return;}
 const moves=parseMoves(g.moves),side=p=>"player "+p+" ("+COLOUR[p]+", "+g.players[p-1]+")";
 $("status").textContent="Replay: game "+g.game+", ply "+replay.ply+" of "+moves.length+": "+
  (replay.ply<moves.length?side(replay.ply%2+1)+" to move":g.winner?side(g.winner)+" wins":"no winner");
 moves.forEach((c,i)=>{const r=t.insertRow();r.insertCell().textContent=(i+1)+". P"+(i%2+1)+" "+c[0]+" "+c[1]+(i<g.opening_plies?" (opening)":"");
  if(i+1===replay.ply)r.style.background="#fde7b0";r.style.cursor="pointer";r.onclick=()=>{replay.ply=i+1;replayShow();};});
 if(replay.ply===moves.length)$("result").textContent=(g.winner?"player "+g.winner+" won":"no winner")+": "+g.detail;}
function showState(){
 if(mode==="replay")return showReplay();
 if(!state)return;$("movelist").value=state.moves;
 const who=state.seats[state.to_move-1],you=mode==="play"?[1,2].filter(p=>!state.seats[p-1].bot):[];
 const turn=state.over?"Game over: "+(state.winner?seatText(state,state.winner)+" wins":"a draw")
  :seatText(state,state.to_move)+" to move"+(state.steal_available?" - steal allowed":"");
 $("status").textContent=(you.length===1?"You play "+COLOUR[you[0]]+" (player "+you[0]+"). ":"")+turn[0].toUpperCase()+turn.slice(1);
 $("result").textContent=state.over?state.result:"";$("problem").textContent=state.problem||"";
 $("stealnote").classList.toggle("hidden",!(state.steal_available&&!who.bot&&mode==="play"));
 $("askbot").disabled=!state.bot_to_move;
 const t=$("plies");t.innerHTML="";state.plies.forEach((p,i)=>{const r=t.insertRow();r.insertCell().textContent=fmtPly(p,i);r.title=p.line||"";});
 const lastBot=[...state.plies].reverse().find(p=>p.bot);
 $("botinfo").textContent=lastBot?"bot: "+fmtPly(lastBot,state.plies.indexOf(lastBot))+(lastBot.message?" '"+lastBot.message+"'":"")+"\n"+(lastBot.line||"(no stderr line)"):"";
 if(mode==="watch")$("wnames").textContent="player 1: "+state.seats[0].name+", player 2: "+state.seats[1].name;
}
// `where`: the element for a refusal ("error": the game's actions; "aerror": the analysis), cleared
// by the next success of the same kind. A bot's failure is the game's problem: shown once, in #problem.
async function api(method,path,params,where){
 where=where||"error";
 const body=params?new URLSearchParams(params).toString():undefined;
 const res=await fetch(path,{method:method,headers:body?{"Content-Type":"application/x-www-form-urlencoded"}:{},body:body});
 const data=await res.json();
 if(!res.ok){if(data.state)state=data.state;
  $(where).textContent=data.state&&data.state.problem&&data.state.problem===data.error?"":data.error||("HTTP "+res.status);}
 else{$(where).textContent="";if(data.moves!==undefined&&data.seats)state=data;}
 return {ok:res.ok,data:data};}
async function refresh(after){showState();thinkResult=null;$("thinkout").textContent="";await analyse();draw();if(after)after();}
async function analyse(){
 if(!$("heat").checked){analysis=null;$("bookline").textContent="";return;}
 const t0=performance.now();const r=await api("GET","/api/analyse?moves="+encodeURIComponent(moveListOf(currentMoves())),null,"aerror");
 if(!r.ok)return;analysis=r.data;const b=analysis.book;
 if(b&&b.loading&&!window.bookPoll)window.bookPoll=setTimeout(async()=>{window.bookPoll=null;await analyse();draw();},2000);
 $("bookline").textContent=analysis.over?"game over":!b||!b.book?(b&&b.loading?"the book database is still loading: try again in a moment":"no book database loaded"):!b.in_book?"position not in the book ("+b.positions+" positions)":
  "book: value "+b.value+" ("+b.lower+".."+b.upper+")"+(b.proof?" proven "+b.proof:"")+" for player "+analysis.to_move+
  (()=>{const st=b.moves.find(m=>m.steal);return st?"; the steal "+st.x+" "+st.y+": "+(st.proof?"proven "+st.proof:st.value+" ("+st.lower+".."+st.upper+")"):"";})()+
  "; shipped "+(b.shipped?b.shipped.join(" "):"-")+", re-pack "+(b.repack?b.repack.join(" "):"-")+"; "+analysis.book_ms+" ms ("+Math.round(performance.now()-t0)+" ms in all)";}
async function clickCell(x,y){
 if(mode!=="play"||busy||!state)return;busy=true;
 const t0=performance.now();const r=await api("POST","/api/move",{move:x+" "+y});
 const ms=Math.round(performance.now()-t0);window.lastClickMs=ms;
 await refresh();if(r.ok)$("botinfo").textContent+="\nclick to answer: "+ms+" ms";busy=false;}
// The server goes on answering while it thinks (moves, the state); Stop ends the think early. A
// result for a position no longer on the board is dropped.
async function think(){
 const ms=$("thinkms").value,moves=moveListOf(currentMoves());$("thinkout").textContent="thinking for "+ms+" ms...";
 $("thinkbtn").disabled=true;$("stopbtn").disabled=false;
 const r=await api("GET","/api/analyse?moves="+encodeURIComponent(moves)+"&think="+encodeURIComponent(ms),null,"aerror");
 $("thinkbtn").disabled=false;$("stopbtn").disabled=true;
 if(!r.ok||moves!==moveListOf(currentMoves())){$("thinkout").textContent="";return;}
 const t=r.data.think;if(!t){$("thinkout").textContent=r.data.over?"the game is over":"no result";return;}thinkResult=t;
 $("thinkout").textContent=(t.stopped?"stopped: ":"")+"bot's search: "+t.iterations+" it in "+t.ms+" ms, plays "+(t.move?t.move.join(" "):"-")+", value "+t.value+(t.proof?" proven "+t.proof:"")+"\n"+
  t.top.map((m,i)=>"#"+(i+1)+" "+m.x+" "+m.y+"  value "+m.value.toFixed(3)+"  "+m.visits+" visits"+(m.proof?" proven "+m.proof:"")).join("\n");draw();}
function setMode(m){mode=m;for(const k of["play","watch","replay"]){$("tab-"+k).classList.toggle("on",k===m);$("p-"+k).classList.toggle("hidden",k!==m);}
 running=false;refresh();}
async function watchStep(){const r=await api("POST","/api/bot");await refresh();return r.ok&&state&&!state.over;}
async function watchRun(){running=true;while(running&&mode==="watch"&&await watchStep()){await new Promise(f=>setTimeout(f,250));}running=false;}
function replayShow(){const g=replay.games[replay.game];if(!g)return;const n=parseMoves(g.moves).length;replay.ply=Math.max(0,Math.min(n,replay.ply));
 $("rply").textContent="ply "+replay.ply+" of "+n;
 $("rinfo").textContent="game "+g.game+": "+g.players[0]+" (player 1) vs "+g.players[1]+" (player 2); "+(g.winner?"player "+g.winner+" won":"no winner")+" by "+g.reason+" ("+g.detail+"), "+g.opening_plies+" opening plies";
 refresh();}
$("tab-play").onclick=()=>setMode("play");$("tab-watch").onclick=()=>setMode("watch");$("tab-replay").onclick=()=>setMode("replay");
$("new1").onclick=async()=>{await api("POST","/api/new",{seat:"1"});refresh();};
$("new2").onclick=async()=>{busy=true;await api("POST","/api/new",{seat:"2"});await refresh();busy=false;};
$("undo").onclick=async()=>{await api("POST","/api/undo");refresh();};
$("askbot").onclick=async()=>{await api("POST","/api/bot");refresh();};
$("setup").onclick=async()=>{await api("POST","/api/setup",{moves:$("movelist").value});refresh();};
$("copy").onclick=async()=>{const t=$("movelist");t.select();try{await navigator.clipboard.writeText(t.value);}catch(e){document.execCommand("copy");}};
$("heat").onchange=()=>refresh();$("thinkbtn").onclick=think;$("stopbtn").onclick=()=>api("POST","/api/stop",null,"aerror");
$("wstart").onclick=async()=>{running=false;await api("POST","/api/new",{seat:"watch"});refresh();};
$("wstep").onclick=()=>watchStep();$("wrun").onclick=()=>{if(!running)watchRun();};$("wpause").onclick=()=>{running=false;};
$("recfile").onchange=async()=>{const f=$("recfile").files[0];if(!f)return;const text=await f.text();
 const res=await fetch("/api/record",{method:"POST",body:text});const d=await res.json();
 if(!res.ok){replay={games:[],game:-1,ply:0};$("recgame").innerHTML="";$("rinfo").textContent="";$("rply").textContent="";
  await refresh();$("error").textContent=d.error||("HTTP "+res.status);return;}
 $("error").textContent=(d.warnings||[]).join("\n");replay.games=d.games;
 const s=$("recgame");s.innerHTML="";d.games.forEach((g,i)=>{const o=document.createElement("option");o.value=i;o.textContent="game "+g.game+": "+g.players.join(" vs ");s.appendChild(o);});
 replay.game=d.games.length?0:-1;replay.ply=0;replayShow();};
$("recgame").onchange=()=>{replay.game=Number($("recgame").value);replay.ply=0;replayShow();};
$("rfirst").onclick=()=>{replay.ply=0;replayShow();};$("rprev").onclick=()=>{replay.ply--;replayShow();};
$("rnext").onclick=()=>{replay.ply++;replayShow();};$("rlast").onclick=()=>{replay.ply=1e9;replayShow();};
(async()=>{await api("GET","/api/state");if(state&&state.mode==="watch")mode="watch";refresh();})();
</script></body></html>
)PAGE";

}  // namespace yav::board
