import { cue, type LexiconEntry } from "./types.ts";

/**
 * Words common to the Maghrebi dialects (Moroccan, Algerian, Tunisian), written as they are spelt in
 * arabizi; Arabic script normalises to the same canonical form. Dialect-specific words live in ma.ts,
 * dz.ts and tn.ts. Syntax: pattern.ts ("|" one-token alternatives, "," whole-phrase alternatives).
 */
export const SHARED: LexiconEntry[] = [
  cue("yes", 0.8, [
    "wakha|waxa|wakhkha|wakhka|waha",
    "iyeh|iyah|iya|ayeh|ayh|eyh|iyih|iwah|iyeah|ayih",
    "ih|ey|ay|aye|wah|yah|eyeh",
    "safi|saafi",
    "sah|shih|sahih|s7i7",
    "mzyan|mezyan|mzian|mezian",
    "mlih|mli7|mli7a|mliha",
    "=behi|=bahi|=bahia|=behia|=bhi|=behy",
    "akid|akkid",
    "tbarkallah|tbarkalah|tbarklah|tbarkalla",
    "marhba|mrahba|merhba|marhaba",
    "sahit|saha|sahha, yatik saha, ya3tik saha",
    "tfadal|tfadhel|tfadel",
    "ayya|aya|yallah|yalah",
    // Exact spelling (round 9): with flexible vowels "hanya" read "hna" and "houni" (here): "mouch houni" was a "no yes".
    "=hanya|=hania",
    "na3am|n3am|na3m|=aywa|=aiwa",
    "normal|normale",
    "mrigel|mriguel|mrigl|mriguila",
    // "مريقل" (its qaf is canonical "9"; round 27).
    "=mri9l|=mri9el|=mri9la",
    "tamam|tmam",
    // "مقبول" (acceptable; round 21).
    "=m9bul|=m9bula|=ma9bul|=ma9bula|=m9boul",
    // "أوكي" (OK in Arabic script; round 21).
    "=awki|=uki|=ouki|=awke",
  ]),
  cue("yes", 0.55, ["ah|aah|ahh", "ma3lich|ma3lih|malich"]),
  // "بلا شك" (without doubt): round 11.
  cue("yes", 0.7, ["bla chk|chak|chek, bla ma nchk"]),
  // "علاش لا", "3lech le" (why not): an assent, no question and no "no" (round 21).
  cue("accept", 0.7, ["3lach|3lech|3lah|3leh|3lash la|le|lala"]),
  // "توصل على خير", "tousel 3la 5ir", "الله يجيبه على خير" (may it arrive safely): a blessing on the parcel's coming, a yes
  // to it (round 39).
  cue("accept", 0.75, [
    "tusel|tusl|tosel|yusel|yusl|yosel|twsl|ywsl|ywsel|twsel|tji|yji|yjibh|yjibha|yjibu|ijibh 3la|3al khir|5ir, tusel|tusl|tosel|yusel|yusl|twsl|ywsl|tji|yji|yjibh|yjibha blslama|bslama|bsslama|bisslama|bisalama",
  ]),
  // "بالضبط", "hkaka bedhabt" (exactly, just so), like French "exactement" (round 16).
  cue("yes", 0.7, ["=bldbt|=bdbt|=bldabt|=bidabt|=bedabt|=bezabt|=bzabt|=bldabet|=bedabet"]),
  cue("accept", 0.9, [
    "ma kayn* _ mouchkil*|mochkil*|mochkl*|machakil, ma kayn* bas, ma kayn* bas _ mouchkil*",
    "bla mouchkil*|mochkl*|bas, ma 3andi* _ mouchkil*|mochkl*|machakil, ma 3ndi* _ mouchkil*|mochkl*",
    "machi mouchkil*, mouch mochkl*|mouchkil*, mech mochkl*|mouchkil*, hta mouchkil* ma kayn*",
    // "ما عنديش مانع" (I have no objection; round 16).
    "ma 3ndi*|3andi* man3|mane3|mani3, ma fiha hta man3|mane3",
    "ma fiha bas, ma fiha hta bas, ma fama* _ mochkl*|mouchkil*, famech* _ mochkl*|mouchkil*|machakil",
    "ma kach* _ mouchkil*|mochkl*, makach* _ mouchkil*|mochkl*",
    "kolchi mzyan|mlih|shih|s7i7|behi|mezyan|tamam|mrigel|mli7, kolchi huwa hadak, kolchi hwa hadak",
    // "hadik hiya", "هاذي هي" (that's the one) said of the order read back (round 16).
    "hadik|hadi|hedhi|hedhika hiya|hia|hya|hiyya, hadak|hada|hedha|hedhaka huwa|hwa|howa|houwa, hiya hadik, huwa hadak",
    // "هاديك هي" (that's the one, "hi" spelt short): only "that", since "هادي هي" (this is) opens a clause (round 21).
    "hadik|hedhika hi, hadak|hedhaka hu",
    // "هو هداك", "هوما هادوك" (that's it, those are them): the pronoun first, spelt short (round 39).
    "hu|huwa|hwa hdak|hadak|hdek, hi|hiya|hia hdik|hadik, huma|homa hduk|haduk|hadok",
    // "هو هاذاكا", "هي هاذيكا" (Tunisian "that", with its final "a"), and "هي هي", "hiya hiya", "huwa huwa" (that's the very
    // one) said of the value read back: "الأكحل؟ هو هاذاكا", "42? Hiya hiya." (round 44).
    "hu|huwa|hwa hadaka|hedhaka|hdaka, hi|hiya|hia hadika|hedhika|hdika",
    "hi|hiya|hia hi|hiya|hia, hu|huwa|hwa|howa|houwa hu|huwa|hwa|howa|houwa",
    "kol chay behi|mrigel|s7i7|mzyan|shih|tamam, kol chi behi|mrigel|mzyan|s7i7",
    "confirmi*|nconfirmi*|kanconfirmi*|confirmit*|nconfirm*|confirmina",
    // Spelled exactly (round 12): with flexible vowels "akked*" read the city "Agadir" (canonical "akadir") as "I confirm".
    "=aked*|=akd*|=akid*|=naked*|=nakd*|=maked*|=makd*|=mtaked*|=mtakd*|=mt2aked*|=kanaked*|=kanakd*|=knaked*|=knakd*|=tanaked*|=tanakd*|=tnaked*|=tnakd*",
    // "مؤكدة" (confirmed; canonical "mukda": the hamza on a waw, round 15).
    "=mukd*|=m2akd*|=mu2akd*",
    // "ثبتوها", "thabtouha" (confirm it, make it firm; round 16): the imperative with its object only, since "نثبت في"
    // is "I check" in Tunisia ("ننجم نثبت في الحاجة قدام الليفرور").
    "=tbtuha|=tbtuh|=tabtuha|=tabtuh|=thabtuha",
    "hakdak mzyan, hakka mzyan, hakak mlih, kif ma huwa, kif ma hiya, kima rahi, kif ma howa",
    // "la commande تقعد كيف ما هي" (stays as it is; round 14).
    "kif|kima ma? hi",
    // "خليه كيف ما هو" (leave it as it is; canonical "hu": round 21).
    "kif|kima ma? hu",
    // "الطلبية نتاعي خليها كيما راهي" (leave it as it is): the order kept, not "khaliha" (forget it; round 11).
    "khali*|khli*|khalli* kima|kif|kifma|kma|kmma rahi|raha|rah|hiya|hia|hya|hi|howa|huwa|hwa|kant|kanet|kan",
    "khali*|khli*|khalli* hakka|hakda|hakdak|hakak|hakdaka",
    // "خلّي الـlivraison في نهارها", "khalliha f wa9tha": leave it (the delivery) on its day, at its time (round 20).
    "khali*|khli* _ f|fi nharha|nharu|wa9tha|wa9tu|waktha|maw3edha|maw3edu|وقتها|وقتو|وقته|موعدها|موعدو",
    // "على بركة الله" (with God's blessing: go ahead), "ما نرجعش في كلمتي" (I don't go back on my word), "الكوموند تبقى
    // كيما هي" (the order stays as it is): round 22.
    "3la brka|barakat|barakt lh|alah|llah",
    "ma nrj3ch|nraja3ch|nrja3ch|nraj3ch|kanrj3ch fi|f klmti|kelmti|kalmti",
    // "ما رجعتش في كلامي" (I did not go back on my word), "ma ghadich nrje3 fih" (I won't go back on it; round 27).
    "ma rj3tch|rja3tch|rje3tch|raja3tch fi|f klami|klmti|kelmti|kalmti|kalami|kelmi|klmi",
    "ma ghadich|ghanch|ghadi|nich nrj3|nrje3|nraja3|nrja3 fih|fiha|fihom",
    "tb9a|teb9a|yb9a|yeb9a kima|kif ma? hi|hiya|hia|hu|huwa|rahi",
  ]),
  cue("send", 0.85, [
    "sifto*|siftu*|sift|siftiha|siftih*|seft*|tsifto*|tsift*|sifet*",
    "jibo*|jibu*|jibha|jib|jibi*|jibih*|jiblia|jibli|tjibo*|tjibu*|tjibha|yjibo*|yjibu*|yjibha",
    "ab3at*|b3at*|tab3at*|teb3at*|nab3at*|ab3eth*|tab3t*",
    // "Ebe3thouha ya kho" (send it; round 28).
    "ebe3t*|eb3et*|ebe3at*",
    "rsel*|arsel*|tarsel*|rsal*",
    "kamel*|kemel*",
    // "هاتوه", "hatouha" (bring it; round 22): the imperative with its object only.
    "=hatuh|=hatuha|=hatih|=hatiha|=hatuhli|=hatuhali|=hatihli",
    // "envoyiha", "envoyiwha" (the French verb with the dialect's imperative and object; round 38).
    "=envoyih*|=envoyiwh*|=envoyiw|=envoyiha",
  ]),
  // "Let it come": "leave it" with a verb of coming or going is "send it" ("khliha tji", "خليها غادية"), not "keep it".
  cue("send", 0.8, [
    "khali*|khli*|khaliw* tji|tjina|tjini|yji|ghadya|ghadia|ghadi|tmchi|temchi|tmchy|twsel*|tusel*|tewsel*|tewsal*|ywsel*|yusel*|tfut|t3adi",
    // "خلّيها ماشية" (let it go ahead; round 20): the participle only, "machi" being "not".
    "khali*|khli*|khaliw* =machya|=machia|=machiya|=mechya|=mechia|=mechiya|=machyin|=mechyin",
    // "سير معاه" (go ahead with it; round 21).
    "=sir|=siri|=siru m3ah|m3aha|m3ahu|m3aho",
  ]),
  cue("take", 0.7, [
    "nkhales*|nkhlas*",
    "nakhod*|nakhd*|nakhdo*",
    // "نديها", "ndiha": "I'll take it" in Algeria and Morocco (round 10).
    "=ndiha|=nediha|=nddiha|=ndih|=nedih|=ndihum|=ndihom|=ndihm|=ndihem",
    // Its negative suffix, under a "ma": "ما نديهاش" (round 18).
    "=ndihach|=ndihch|=nedihach|=ndihech|=ndihomch|=ndihumch",
    "nechri*|nchri*|ncharih*|nechar*",
    "n9bel*|nestelem*|nstelem*",
    "nstana*|nestana*|ntsana*|kantsna*|kanstana*|kantsena*|nstena*|kanstena*|nestena*|kantsana*",
    "msta3jel* 3li*, mzroub* 3li*, mestanih*|mestaniha, mn|men chhal hadi, hadi chhal",
    // The Tunisian participle alone, "ena mestanni" (I'm waiting for it; round 23).
    "ena|ana|rani|rahi|raki mestani|mestania|mestanya|mestanni|mestannia",
    "rani hna, ana hna, ena houni, rani houni",
  ]),
  cue("identity", 0.7, [
    "ana li|lli|elli|eli tlebt*|talabt*|tlabt*|comandit*|comandi*, ena li|lli|elli|eli tlebt*|talabt*|comandit*",
    "ana|ena hiya|houwa|hwa|hya|hia|huwa|bidi|bnafsi|binafsi|b7ali|bhali, ana|ena bi dati",
  ]),
  cue("refuse", 0.85, [
    "ma bghit*|bghiteha*|nbghi*|nebghi*|baghi*|baghya*, ma b9it* _ baghi*|baghya*|m7taj*|mhtaj*|nhtaj*|n7taj*, ma b9it*",
    "ma 3adch|3adich|3adech|3adach, ma 3ad*|3dt* _ nheb*|baghi*|nhab*|m7taj*|mhtaj*|nhtaj*|n7taj*|n7etaj*",
    "ma nheb*|nhab*|nhib*|nhabha*, mouch|mech|mich nheb*|nhab*",
    "ma htaj*|nhtaj*|mhtaj*|m7taj*|n7etaj*|nesha9*|nesh9*|nach9*|nsha9*",
    // "ما حاجتيش بيه" (I have no need of it; round 22).
    "ma hajtich|hajtech|hajtch|hajtich",
    "ma rani* _ hab*|nhab*|nheb*, ma ranich hab*|nhab*, ma nich hab*|nhab*",
    "ma 3jbatni*|3jebni*|3ajbatni*|3jbetni*",
    // The Moroccan present with its "ka"/"ta" prefix: "ma kanbghich", "ما كنبغيهاش", "ma tanbghihach".
    "ma kanbghi*|knbghi*|kanebghi*|tanbghi*|tnbghi*|kanhtaj*|kan7taj*|knhtaj*",
  ]),
  // Ordered by mistake, said of the customer's own act: "غير ضغطت بالغلط", "cliquit bl ghalat", "tlebt bel ghalta".
  cue("didntOrder", 0.85, [
    "dght*|dghat*|dghet*|klikit*|cliquit*|clikit*|tlebt*|talabt*|comandit*|konmandit*|drt|dert|3malt|3melt _ =blghlt|=blghalat|=blghalt|=blghlat|=belghalta|=bilghalat|=bighalat|=bghlt",
    "dght*|dghat*|dghet*|klikit*|cliquit*|clikit*|tlebt*|talabt*|comandit*|konmandit*|drt|dert|3malt|3melt _ b|bl|bel|bi =ghlt|=ghalat|=ghalta|=ghlat|=lghlt|=lghalat|=lghalta|=lghlat",
  ]),
  // "7bes" (stop): "7bsuha", "نحبسها" (stop the order).
  cue("cancelVerb", 0.85, ["=hbs*|=nhbs*|=thbs*|=hbes*|=nhbes*|=thbes*|=hbas*|=nhbas*"]),
  cue("cancelVerb", 0.9, [
    // Spelled exactly (round 10): with flexible vowels "lghi*"/"lgha*" read "lghaz" (gas), "lgharunti" (the warranty),
    // "lghard" (the aim) and "lghalat" (the mistake) as "cancel".
    "=lghi*|=alghi*|=nlghi*|=tlghi*|=ylghi*|=lghet|=lghetha|=lghaha|=lghah|=lghat|=lghatha|=lghaw|=lghawha|=lghawh|=lgho|=lghu|=lghoha|=lghuha|=lghoh|=lghuh|=lghwa|=lghwha",
    "=anul*|=nanul*|=tanul*|=anil*|=nanil*|=canceli*|=cancel",
    "=btl*|=nbtl*|=tbtl*|=btel*|=nbtel*|=betl*|=nbetl*|=tbetl*|=bettel*|=nbettel*",
    // "ملغي" (cancelled), which "موش ملغي" (not cancelled) negates (round 14).
    "=mlghi|=mlghia|=mlghiya|=mlgha|=mulgha|=mlghiyin",
    // The noun, "إلغاء" (a cancellation; canonical "lgha"): "ديرولها إلغاء" (round 15).
    "=lgha",
    // "batlouha" (cancel it, Algeria): the verb's forms only, not "batel" (free, for nothing; round 14).
    "=batlu*|=batlo*|=batlha|=batelha|=batelhali|=battlu*|=battelha|=nbatl*|=tbatl*|=nbatel*|=tbatel*|=nbatal*|=tbatal*",
    // Its third person ("قولهم يبطلو", tell them to cancel; round 18).
    "=ybtl*|=ybatl*|=ybetl*|=ybattl*|=ybettl*",
    // "كنسليها" (cancel it, from French "canceller"): its forms only, not "كنسلم" (I greet; round 16).
    "=knsli*|=knslu*|=knslh*|=knslt*|=kanseli*|=kanselu*|=kanselt*|=kansel|=nkansel*|=nknsl*|=tkansel*|=tknsl*",
    // "نحيو la commande" (take the order off): removing the order itself, where "nhiu" alone removes an item.
    // (The order itself, not "نحّي الشاحن من الكوموند", an item taken out of it.)
    "=nhiu|=nhiw|=nahiu|=nhi|=n7i la? ~comand*|~kumund*|~kumand*|~komand*",
  ]),
  // "refuse" in the dialects, a verb a negation denies ("موش رافضة", "ma rfadtch"): spelled exactly, because "rfed" is
  // also "carry" in Morocco (round 11).
  cue("cancelVerb", 0.85, [
    "=rafda|=rafed|=rafd|=rafdin|=rafdha|=rafedha|=rafdtha|=rafadt|=rafadtch|=rfadt|=rfadtch|=rfdt|=rfdtch|=rfdtha|=rfedtch|=rafdtch|=nrafdach|=kanrfedch|=rafedh",
    // The French verb in the dialects: "nrefuser", "nrefusiha", "refusit" (round 21).
    "=nrefuser|=nrefusi|=nrefusiha|=nrefuseha|=refusit|=refusitha|=nrefuzi",
  ]),
  cue("changedMind", 0.92, [
    "badelt|bedelt|badalt|tbadel|tbdel|bdelt|ghayert|ghayart ray*|fikra|fikri",
    "bdlt|bdelt|badalt|badelt|ghayert|ghayart|tbadel ~ray|~rayi|~fikra|~fikri",
  ]),
  cue("reason", 0.7, [
    "ghali|ghalia|ghalya|ghaliya|ghaly|ghalyin|ghalin",
    "bezaf|bzaf|barcha 3liya|3lia|3liha",
    "ma 3andi*|3ndi* _ ~flus*|~flous*|~drahem|~drahm|~sold|~mal|dinar*|~drahim|~sold",
    // ("ما عنديش باش نخلص": I have nothing to pay with; round 19.)
    "ma 3andi*|3ndi* bach|bch|ach|wach|ma nkhalas|nkhles|nkhlas|nkhals",
    "l9it* _ arkhas|rkhas|akhir|ahsan|mkhir, l9it* f|fi blasa, l9it*, rkhes|arkhas|arkhes, f|fi|men|mn blasa khra|okhra|ukhra|akhra",
    "yezi|yezzi|baraka|barka|kfani, baraka 3lia, khlas safi",
    // "3la jibi" (for my pocket), not "jibi" (bring it): a remark on the price (round 12). ("el flous fi jibi", the
    // money in my pocket, is ready: no reason; round 27.)
    "3la|3al ~jibi|~jibk|~jibna|~jibu",
    // "at this price" ("b had taman", "بهاد الثمن"): a remark on the price, not a question about it.
    "b had|hadak|hedha|hed|hadi ~taman|~tamen|~=suma|~=soma|~prix, bi had|hedha|hadak ~taman|~tamen|~=suma|~=soma|~prix",
    "t3atal*|ta3tal*|t3tal*|t3atl*|t3etl*|ta3atal*|=t3tlt*|=t3tlet*",
    "chrit*|cherit*|chrito|chritha, chrit* _ wahda|wahed|wehed khra|okhra|akhor|ukhra",
    // "جبت وحدة من قسنطينة" (I got one from Constantine; round 20).
    "=jbt|=jebt|=jibt|=jabt wahda|wahed|whda mn|men|min|f|fi",
    // "Nchallah marra o5ra", "إن شاء الله مرة أخرى" (another time): not this one; with a call verb or "again", a
    // callback or a repeat (signals.ts; round 39).
    "mara|mra|marra|mera|merra okhra|akhra|ukhra|o5ra|khra|okhr",
  ]),
  // ("انساوها", "nsawha": forget it, to more than one; round 19.)
  cue("refuse", 0.75, [
    "khaliha|khalih|khaliw, khaliha 3lik, sameh|sme7 fiha, nsaha|nsa, =nsawha|=ansawha|=insawha|=nsawh",
    // "أما خلّيني منها", "khalliwna menha" (leave me, us out of it), "khalli khalli" (leave it, leave it; round 20).
    "=khalini|=khlini|=khallini|=khaliwni|=khliwni|=khalina|=khlina|=khaliwna|=khliwna =mnha|=menha|=minha|=mnu|=mnou|=menu|=menou|=mno|=mnh|=mnhum|=mnhom",
    "=khali|=khalli|=khli =khali|=khalli|=khli",
  ]),
  // "… w 3ad tfkrtouni? la chokran", "لا شكرا": "no, thanks" (round 18).
  cue("refuse", 0.75, ["la chokran|chukran|choukran|chkran|chkra|=merci"]),
  // "روحو بيعوها لواحد آخر" (go sell it to someone else): round 11.
  cue("refuse", 0.85, [
    "bi3* ~wahd|~wahed|~wahda|~chi|~hadd|~had akhr|akhor|okhor|akhur|khor|khra|akhra|ukhra|okhra|ekher|ekhor",
  ]),
  // "not this time": "ghir machi had lmerra", "mouch el marra hedhi", "pas cette fois" (round 10).
  cue("refuse", 0.8, [
    "machi|mouch|mech had|hed ~=merra|~=mera|~=mra|~=marra|~=mara, mouch|mech ~=marra|~=merra hedhi|hadi, pas cette fois*",
  ]),
  // "Keep it (with you)", said to the shop: "khliwha 3andkom", "خليه عندكم"; and "I'll order again (later)".
  cue("refuse", 0.85, [
    "khali*|khli* 3andkom|3ndkom|3andkum|3ndkum|3likom|3likum|likom|likum",
    // (Said to one person: "khalliha 3andek", round 11.)
    "khali*|khli* 3andek|3ndek|3andk|3ndk|3andik|3ndik",
    "n3awd*|n3awed*|nrja3* ntleb*|ntlob*|ncomandi*|nkomandi*|ncommandi*",
  ]),
  cue("didntOrder", 0.9, [
    "ma tlebt*|tlabt*|talabt*|tlobt*|tleb*, ma comandit*",
    "ma 3malt*|3melt*|3mlt* _ comand*|chay|chi|hata*|walu, ma 3malt*|3melt*|3mlt*",
    "machi ana li|lli tlebt*|comandit*, mouch|mech ena eli|li|elli talabt*|comandit*",
    "ma drt* _ comand*",
    "ma cherit*, ma chrit* walu",
    "jamais|=jami komandit*|commandit*",
  ]),
  cue("notMe", 0.95, [
    "machi|mouch|mech|mich|mahich ana|ena, ma chi ana, machi nta",
    "ana machi houwa|hiya|hwa|hia|huwa|hya|hua, ena|ana mouch|mech houwa|hiya|hwa|hia|huwa|hya",
    "ghalet*|ghalt*|ghalat* _ ~numero*|~nemra|~nimiro|~nimro|~ra9m|~numro*|~raqm",
    "~numero*|~nemra|~nimiro|~numro* ghalet*|ghalt*|ghalat*, ~numero*|~nemra|~nimiro|~numro* _ machi dyal*|ta3*",
    "~numero*|~nemra|~nimiro|~numro* mouch|mech mta3*|mte3*, machi|mouch|mech _ ~numero*|~nemra|~nimiro|~numro*|~nmra",
    // "النوميرو هاذا ما عادش متاع سنية", "had nnumero ma b9ach dyal Karim": the number no longer theirs (round 26).
    "~numero*|~nemra|~nmra|~nimiro|~numiru|~numro* _ ma =3adch|=3adech|=b9ach|=b9atch|=b9ech|=b9atech mta3*|mte3*|dyal*|ta3*|nta3*",
    // "هذا téléphone متاع الشركة موش متاعو" (the company's phone, not his): round 16.
    "~=telephone|~telefon*|~tilifun*|~tilifon*|~numero*|~nemra|~numro* _ mouch|mech|machi mta3u|mte3u|mta3o|dyalu|dyalo|ta3u|ta3o|mta3ha|dyalha|ta3ha",
    "=na3rfuch|=n3rfuch|=na3rfhach|=n3rfhach|=na3rafuch|=n3arfuch|=na3rfuh|=ne3rfuch|=kan3rfuch|=kan3rfhach",
    "ma na3rf*|n3rf*|3reft*|kan3rf*|na3raf* _ chkun|smiya|hada|hadi|hedha|hedhi|ism|esm|lism|lesm|wahed|wahda|had|hatta|hata|hta|hadik|hadak|hedhika|hedhak|mra|lmra|rajel|rajl|~3abd",
    "ana|ena machi|mouch|mech el|l? ~3abd|~chakhs|~bnadem|~personne",
    // "وليد ما عادش يسكن هنا", "ma b9ach yskn hna": the person asked for no longer lives here (round 9).
    "ma 3adch|3adech|3adsh|b9ach|bqach|b9ash ysk*|yask*|sakn*|sakin*",
    "smiti|ismi|esmi|lism|smiya machi|mouch|mech, machi|mouch smiti|ismi|esmi",
    "hta|hatta wahed b had smiya, had smiya, hadi smiya, b had lism, b hedha l|el esm, bel esm hedha, b hedha lesm",
    "ma kayn* hta _ b had smiya, ma fama*|famech* had|hata had",
    "=ghaltin|=ghaltine|=ghalatin|=ghaltu|=ghaltou|=ghalatem|=ghaltem|=ghaltiw|=ghaltini|=ghlatin",
    // "had nnmra ma b9atch dyalo": the number is no longer the person's (round 10).
    "ma b9at*|b9atch|b9ach|b9a _ dyal*|dyalu|dyalo|ta3u|ta3o|mta3u|mta3o",
    // "هذا الرقم ماعادش تاعو", "ma 3adch ta3ha": no longer his or hers (round 11; "ma 3adch" alone is a refusal).
    "ma 3adch|3adech|3adsh|3adich|3adach _ dyalu|dyalo|dyalha|ta3u|ta3o|ta3ha|mta3u|mta3o|mta3ha|nta3u|nta3o|nta3ha",
    // "سلمى ما عادش عندها النومرو هذا" (she no longer has this number), "c'était le numéro de mon frère", "هادي كانت
    // نمرة خويا" (this was my brother's number): round 16.
    "ma 3adch|3adech|3adsh|3adich|3adach|b9ach|b9atch|bqach 3nd*|3and*|3end* _ ~numero*|~nemra|~nimiro|~numro*|~nmra|~numru|~nimra",
    "=kant|=kanet|=kanat|=kanit ~=nmra|~=nemra|~=nimra|~=nimru|~=numero|~=numru, =etait le|l|mon =numero|=num",
    // "had nmra kanet dyal khay", "ce numéro était à ma tante": the number was someone else's (round 9; a lexicon
    // phrase since round 10, where signals.ts had it as a loop of its own).
    "~=nimru|~=nimro|~=nimiru|~=numero|~=nmra|~=nemra|~=nimra|~=ra9m|~=r9m|~=raqm _ =kan|=kanet|=kant|=kanat|=etait|=kanu =dyal|=dial|=ta3|=mta3|=nta3|=a|=ta3t",
    // "Le numéro هذا ولا متاعي من شهرين", "had nnmra wlat dyali": the number became the speaker's (round 14).
    "~=nimru|~=nimro|~=nimiru|~=numero|~=nmra|~=nemra|~=nimra|~=ra9m|~=r9m|~=raqm _ =wla|=wlat|=wlla|=wllat|=welat|=wellat|=walat|=wallat|=wala|=walla =dyali|=ta3i|=mta3i|=mte3i|=nta3i",
    // "khouti bedlet noumrou, hedha walla mte3i tawa" (this one is mine now), "Yassine ما عادش يستعمل هالنمرة" (no longer
    // uses this number): round 24.
    "=heda|=hedha|=hada|=hadi|=hedhi|=hda|=hdi|=hadchi =wla|=wlat|=wlla|=welat|=walat|=wallat|=wala|=walla =dyali|=ta3i|=mta3i|=mte3i|=nta3i",
    "ma 3adch|3adech|3adsh|3adich|b9ach|b9atch|bqach =yst3ml|=yst3mel|=ysta3mel|=yesta3mel|=yista3mel|=tst3ml|=testa3mel|=tista3mel",
  ]),
  // The person asked for has died ("rajli twefa 3am hada", "c'est le numéro de mon père, il est décédé"): not them.
  cue("notMe", 0.7, ["=twefa|=twfa|=twffa|=twefat|=twfat|=twffat|=twafa, =decede|=decedee"]),
  // "3andkom ghalta" (you have it wrong), like "ghaltin" (you are mistaken).
  cue("notMe", 0.85, ["3andkom|3ndkom|3andkum|3ndkum ghalta|ghalt|ghalet|ghlta"]),
  cue("notMe", 0.7, ["ghalet|ghalt|ghlet", "machi ~comand* dyali|ta3i, mouch|mech ~comand* mta3i|mte3i"]),
  // Asking for a discount ("دير ليا شي réduction", "ta3mlouli remise", "faites-moi une remise"): a change of the price;
  // a discount only asked about ("kayn chi remise?") is a question (round 11).
  cue("changeVerb", 0.75, [
    "dir*|ta3ml*|t3ml*|a3ml*|a3mel*|fait*|fais* _ ~=remise|~=reduction|~=rabais|~=tkhfid|~=takhfid|~=tekhfidh",
    // "faites-moi un petit prix", "faites un geste" (round 12).
    "=fait*|=fais* _ =petit|=bon =prix, =fait*|=fais* _ =geste",
    // "appliquez-moi la remise", "تحسبلي الكود promo" (apply, count me the discount code; round 27).
    "=apli9u*|=thsb*|=hsb*|=t7sb*|=7sb* _ ~=remise|~=reduction|~=promo|~=brumu|~=kud|~=kode",
  ]),
  cue("changeVerb", 0.85, [
    "badel*|tbadel*|nbadel*|ybadel*|bdel*|tbdel*|nbdel*|bedl*|badl*",
    "=ghayer*|=nghayer*|=tghayer*|=ghayar*|=nghayar*",
    "=badal|=bdal",
  ]),
  cue("attr", 0.7, [
    // "بالكم الطويل", "كمام قصار" (long, short sleeves; round 21).
    "=blkm|=lkm|=bkm|=kmam|=lkmam|=blkmam|=kom|=lkom =ltuil|=tuil|=twil|=ltwil|=l9sir|=9sir|=t9sir|=twal|=ltwal|=9sar|=l9sar",
    "~khel|~khla|~kahla|~khal|~kahal|~akhel",
    // "بالعنابي", "l3nabi": burgundy (round 18).
    "~3nabi|=bl3nabi|=l3nabi",
    "~hmer|~hamra|~ahmer|~hmar|~hmra|~hamar",
    "~byed|~=bayda|~=bida|~abyed|~byad|~abyad|~bayed|~=byda|~=bydha|~=baida",
    "~zre9|~zar9a|~zer9a|~azra9|~zra9|~zar9",
    "~khder|~khadra|~akhdar|~khdar|~khdra|~khedra",
    "~sfer|~safra|~asfar|~sfar|~sfra",
    "~rmadi|~rmadia|~rmadiya",
    "~wardi|~wardia|~wardiya",
    "~9ahwi|~9ahwia|~9hwi",
    "~kbir|~kbira|~kbar|~sghir|~sghira|~sghar",
    // "lbej", "البيج" (beige), "dhahbi" (golden), "fddi" (silver) (round 38).
    "~=bej|~=bij|~=beige|~=dhahbi|~=dahbi|~=dhabi|~=dhbi|~=fddi|~=fiddi|~=faddi",
  ]),
  cue("attrNoun", 0.5, ["~lun|~lon|~lawn|~alwan|~lwan|~loun", "~modil|~model|~nu3|~no3", "~9yas|~9yes|~9ias|~9yasa"]),
  cue("qty", 0.6, [
    "juj|zuj|zuz|tnin|tlata|tleta|arb3a|juja|zuza",
    // "joj", "zoz": two, written with a bare "o" (round 39).
    "joj|zoz",
    "whda|wahda|wahed|wahd|wehed|wehda",
    // "بجوج", "bzouj": both, the two of them (round 11).
    "=bjuj|=bzuj|=bzuz|=bjuja|=bzuja",
  ]),
  cue("add", 0.8, [
    "zid*|nzid*|tzid*|zidni*|zidli*",
    "wahed|wehed akhur|akhor|okhor|ukhor, wahda|wehda khra|ukhra|okhra|akhra",
    "n9es*|na9es*|n9as*|tn9as*|=hayed*|=nahi|=nahih*|=nahiw*|=nhiu|=nhiw|=nahiu|=nhi",
    // "إذا نحيتو حق التوصيل" (if you take the delivery fee off), "ila tnahiw": the second person (round 21).
    "=nhitu|=nhiytu|=nahitu|=nhiti|=nahiti|=tnahiu|=tnahiw|=tnhiu|=tnhiw",
    // "7iydi lia sac" (take the bag off for me; round 16).
    "=hiydi|=hiyd|=hiydu|=hiydha|=hiydo|=hiydli|=hiydlia|=hydi|=hydu|=hydli|=hayedli|=hayedlia",
    // "ida tnaqsouli chwiya" (if you knock a bit off for me): round 11.
    "=tna9suli|=tna9sli|=tn9suli|=tn9sli|=tna9soli|=tn9soli|=tna9slna|=tn9sulna",
    "dir|diru|diri|dirha|dirhom|a3mel|a3mli|ddi lia|lya|li|liya? juj|zuj|zuz|tlata|tleta|juja|zuza",
  ]),
  cue("instead", 0.75, ["blast|=bdal|blaset*|blasat*, fi|f blast|blaset*|blasat*, fi|f 3od"]),
  // "modèle e5er", "lon akhor", "taille okhra", "un autre modèle": another model, colour or size than the one ordered
  // (round 26).
  cue("instead", 0.7, [
    "~modele|~model|~modil|~lon|~couleur|~taille|~9ias|~9yas|~pointure|~no3 =ekher|=akhor|=akhur|=okhor|=khor|=ukhra|=okhra|=khra|=akhra|=ekhra|=akhir|=autre",
    "=autre|=autres =modele*|=couleur*|=taille*|=pointure*|=coloris|=version",
  ]),
  cue("want", 0.45, [
    // "Give me", "give it": the imperative as spelt ("a3tih*" with a flexible first vowel also read "y3tiha", he gives
    // it, the courier's doing: "الليفرور ما يعطيهاش لولدي الصغير"; round 18).
    "bghit*|nbghi*|baghi|baghia|baghya|nebghi*|nhab*|nheb*|nhib*|habit*|=a3tini|=3tini|=a3tih*|=3tih*|=a3tina|=e3tini|=e3tih*",
    // "أنا باغيه", "baghiha": wanting it, with its object (round 11).
    "=baghih|=baghiha|=baghyah|=baghyaha|=baghiya|=baghyin|=baghinha",
    "kanbghi*|knbghi*|kanebghi*|tanbghi*|tnbghi*",
    // "نحتاجها بزاف" (I need it badly): needing it is wanting it (round 23; "ma nhtaj*" stays a refusal).
    "nhtaj*|n7taj*|n7etaj*|nehtaj*|kanhtaj*|kan7taj*",
  ]),
  cue("today", 0.6, ["~lyum|~lyoum|~lyuma, el yum, had nhar"]),
  cue("address", 0.55, ["~adres*|~adris*|~3unwan|~3nwan|~3onwan|~blasa", "~dar dyal*|ta3*|mta3*"]),
  cue("day", 0.85, [
    "~=gheda|~=ghda|~=ghudwa|~=ghodwa|~=ghedwa|~=ghadwa|~=ghdwa|~=ghdua|~=ghuda|~=ghada",
    "ba3d ~=gheda|~=ghudwa|~=ghodwa|~=ghda|~=ghdwa|~=ghedwa",
    "~tnin|~itnin|~atnin|~etnin|~tnayn|~itnayn",
    "nhar ~tlat*, =ltlat|=ltlata|=etlata",
    "=larb3|=larb3a|=larba3|=lerb3a|=larbe3|=larba, nhar ~arb3*|~erb3*",
    "~khmis|~khamis",
    "~jem3a|~jum3a|~jema3|~jom3a|~=juma|~jam3a",
    "~sebt|~sabt|~sibt",
    "=lhed|=lahad|=elahad|=lhad|=elhad|=ahad|=lahd|=lhd, nhar ~hed|~ahad",
    "~simana*|~semana*|~usbu3|~sbu3|~sbua",
    "~3id|~l3id*|~=3aid, ~3id ~kbir|~sghir|~dhha|~fitr",
    "~ramdan|~ramadan|~ramdhan",
    "~chhar jay*|ljay|ljaya|l9adem|jey*, rass ~chhar, f|fi|ba3d # ~chhar",
    // "jibouha l'mois jay": the French month in Darija's "next" (round 18).
    "~mois jay*|ljay|ljaya|l9adem|jey*",
    // "el 7ad jey": Sunday next, the Tunisian "7ad" ("had" alone is also "this").
    "el|l had jey*|jay*|ljay",
    // "آخر الشهر", "awel chhar", "فاول الشهر": the month's end or start (round 17).
    "akhr|akher|akhir|ekher|lakhr|lakher|awl|awel|awal|lawel|lawl|lowel ~chhar|~chhr|~chr|lchr|lchhar|char",
    // "قبل عشرين في الشهر", "le 20 du mois": a day of the month, as a number or a word (round 16).
    "#|=3chrin|=3achrin|=3echrin|=khmsta3ch|=khamsta3ch|=tlatin|=tletin|=3chra|=3achra fi|f|mn ~chhar|~chhr|~chher|~chahr",
    "f|fi|nhar #, ba3d|mn|fi # ~iyam|~ayam|~yum|~youm|~nhar*, mn daba # ~iyam|~ayam",
    "ba3d yumin, ba3d juj|zuz|tlata ~iyam|~ayam, nhar *",
    // "nhar l'arb3a", "nhar el khmis": the article written apart is one day, not "nhar el" and a number "arb3a" (four)
    // beside it (round 12).
    "nhar l|el|al|ul ~arb3*|~erb3*|~tlat*|~khmis|~khamis|~jem3a|~jum3a|~jema3|~sebt|~sabt|~hed|~ahad|~tnin|~itnin|~etnin",
    "wikand|wikend|lwikend, el wikend",
  ]),
  cue("slot", 0.6, [
    "~3chiya|~3achiya|~3chia|~3chiye|~3achia|~3chyia",
    "~sbah|~sbeh|~sobh|~sbh",
    "~=lil|~=lila|~=lail|~=layl",
    "~3chi|~dhor|~dohr|~dhur|~3asr|~maghrib|~meghreb|~ftur",
    "ba3d|mba3d el|l? #, mn|men|min ba3d el|l? #",
    // ("بعد الساعة ستة": after six o'clock, "the hour" between; round 20.)
    "ba3d|mba3d ~sa3a|~se3a? ~seta|~sab3a|~tmenya|~tes3a|~3achra|~khamsa|~arb3a|~tlata|~juj|~zuz",
    "mn|men ba3d ~sa3a|~se3a? ~seta|~sab3a|~tmenya|~tes3a|~3achra|~khamsa|~arb3a|~tlata",
    "~seta|~sab3a|~tmenya|~tes3a|~3achra|~khamsa _ ~3chiya|~sbah|~lil|~3achiya",
    "m3a ~seta|~sab3a|~khamsa|~tmenya|#",
    // "يجي مع الخمسة" (مع reads "m3"), "bin zouj w rab3a" (between two and four): round 11.
    "m3|ma3 ~seta|~sitta|~sab3a|~khamsa|~tmenya|~tes3a|~3achra|~rb3a|~rab3a|~arb3a|~tlata",
    "bin|bain|bayn ~juj|~zuj|~zuz|~tlata|~rb3a|~rab3a|~arb3a|~khamsa|~seta|~sab3a|~tmenya|~tes3a|~3achra w|u|o ~juj|~zuj|~zuz|~tlata|~rb3a|~rab3a|~arb3a|~khamsa|~seta|~sab3a|~tmenya|~tes3a|~3achra|~hdach|~tnach",
    "bin|bain|bayn # w|u|o #",
  ]),
  cue("absent", 0.8, [
    "ma kayn* _ ~dar|hna|fdar, ma kaynch",
    "ma nkun*|nkon*|nkoun*, ma ghadi* nkun*",
    "ma nich, ma nich _ ~dar|hna",
    "msafer*|msafr*|msefer*|msafra",
    "machi f|fi ~dar|fdar|hna, mouch|mech fi|f ~dar|houni|hna",
    "ana|ena|rani barra, ana khrej*",
    "ta|hta|hatta|ki nrja3*|nerja3*|nwali",
  ]),
  cue("postpone", 0.85, [
    "ajel*|najel*|tajel*|nejel*|tejel*, =akhruha|=akhriha|=akhruh|=akhrh|=akhrha|=akharha|=akharuha|=takhruha|=nakhruha|=akhruhali|=akhrulia, =akhar|=akhr|=akher|=wakhar|=nakhar ~tawsil|~livr*|~jiba|~comand*",
    "khaliha l|hta, khaliha l ~simana",
    // "خلّيها الجمعة", "khalliha nhar sebt" (make it Friday, Saturday): the delivery moved to that day (round 16).
    "khaliha|khalih|khaliwha|khaliw ~jem3a|~jum3a|~jom3a|~sebt|~sabt|~khmis|~khamis|~hed|~ahad|~tnin|~itnin|~arb3*|~tlat*|~ghodwa|~ghudwa|~ghedwa|~gheda|nhar",
  ]),
  cue("delivery", 0.5, [
    "~livr*|~mowazi3|~mwazi3|~muzi3|~wusul|~usul|~wsul",
    // "الليفرور", "ليفريزون", "الكورسي": the French words in Arabic letters, with an "f" for the "v" (round 16).
    "~=lifrur|~=lifror|~=lifreur|~=lifrizun|~=lifrezun|~=lifrazun|~=kursi|~=coursier",
    "tusel|yusel|twsel|ywsel|tewsel|yewsel|twsal|ywsal|twsl|ywsl|twasal",
    "yji|tji|tjiw|yjiw|tjini|yjini",
    "~=koli|~=kolis*|~=kulis*|~=kuli|~comand*",
    // "مول التوصيل", "moul tawsil" (the delivery man; round 44).
    "~=mul|~=sa7b|~=sahb ~=tusil|~=twsil|~=tawsil|~=tousil",
    "ljib|tjib*|njib*",
  ]),
  cue("callVerb", 0.85, [
    "3ayet*|t3ayet*|n3ayet*|3ayat*|3iyet*|y3ayet*",
    // Round 8: "kalem" and its object endings, not any word of that skeleton ("kalem*" read the town "Colomiers").
    // ("كلام", "kalam": words, talk, as in "ما فماش كلام", no discussion; only the verb is a call: round 16.)
    "=kalem|=klem|kalemni|kalmuni|kalemha|kalmuha|kalmek|kalmuk|kalmuh|kalmna|kalmukum|kalmik|tkalem*|nkalem*|=ykalamni|=ykalemni|=ykalmni|=yklmni|=tklmni|=yklmuni|=tklmuni|=yklmna|=tklmna|=aklmni|=aklemni|=akalmni|=aklamni|kalmni|klemni|kalamni|=kalmu, =klm",
    "a3mel*|a3ml*|dir*|3mel* apel, a3tini|3tini apel",
    "=rapeli|=rapelini|=rapelili|=rapelili|=apelini|=apelili|tilifuni*|telefuni*|tilifoni*|sonili",
    "3awed*|3awd* 3ayet*|kalem*|=rapel*|tilifuni*",
  ]),
  cue("busy", 0.8, [
    "khdam|khedam|nkhdem|nekhdem|nkhdam|kankhdem|kanekhdem|~khedma|~khdma",
    "mchghul*|mechghul*|mchghol*|mechghol*|mashghul*",
    "nsu9|kansu9|nesu9|tansu9|kaynsu9|kansog|nsug",
    "~tomobil|~tonobil|~tumubil|~karhba|~tobis|~tubis|~tran|~trinu|~ttri9",
    "~sbitar|~jame3|~jam3|~sala|nsali|kansali",
    "ma n9der*|najam*|nejem*|nejam*|n9dar* _ nhder*|nhdar*|nahder*|nahdar*|nahki*|nhki*|nkalem*|njawb*|njaweb*",
    "ma 3andi*|3ndi* _ ~wa9t|~w9t|~wakt",
  ]),
  cue("later", 0.55, [
    "mn|men|mel|min ba3d, mba3d|mbe3d|ba3d",
    "ba3d chwiya|chwaya|chwia|~sa3a, ba3d nus|chi ~sa3a",
    "mn|men ba3d ~sa3a, mn|men ba3d nus|chi ~sa3a, nus|nss ~sa3a, taw ba3d",
    "fi|fel ~lil",
  ]),
  cue("notNow", 0.7, ["machi|mouch|mech daba|taw|dork|drk|drek, daba|taw|dork|drk la, ma chi daba"]),
  cue("beforeArrival", 0.75, [
    "9bel|9bal|kbel|gbel ma|la",
    "mli|mnin|melli|ki|waqt ywsel*|yji|tji|yusel|tusel|yewsel|tewsel|twsel|tjini|yjini, wa9t li yji",
  ]),
  cue("instruction", 0.6, [
    "d9|d9o|du9|dug|da9|de9|d9i ~bab|~beb, ~bab|~beb b 9owa|9wa",
    "khaliha|khalih*|khali* 3nd*|3and*|m3a, khaliha l ~jar, ~hares|~haris|~bawab|~gardian|~jar|~jara|~jiran",
    // "خلي الكولي عند مول الحانوت", "خلّيها في حانوت عمّ الهادي", "nkhalliha 3andu": leave it (the parcel) with someone
    // or at a place, not "keep it" (round 21).
    "khali*|khli* _ 3nd|3and|3end|m3a, khali*|khli*|nkhali*|nkhli* fi|f ~hanut|~7anut|~dukan|~mahal|~magaza|~dar|~bab|~garage|~jar|~jara",
    "nkhali*|nkhli* 3ndu|3andu|3ndo|3ando|3ndha|3andha|m3ah|m3ahu|m3aha",
    // "3tiha l 3essas dyal garage" (give it to the garage's guard): the parcel handed to someone named, no "give me"
    // (round 23).
    "=3tiha|=a3tiha|=3tih|=a3tih|=3tihom|=3tihum|=3tiha* l|li|lil ~3asas|~3sas|~3essas|~hares|~haris|~bawab|~jar|~jara|~gardian|~gardien|~concierge",
    "ila|ida ma kuntch|kontch|kunt*|kaynch|lkitnich, ki ma nkunch",
    "~=sonete|~=sonet|~=sunet|~=sonit|~=sunete",
    // "الليفرور يجيب الصرف", "qu'il ait de la monnaie": the courier to bring change (round 19).
    "yjib|tjib|jib|jibu|yjibu|ijib|ykun|ykoun _ ~srf|~sarf|~sorf|~=sarf|~=srf",
    // "ديرولها carton مليح", "emballage mzyan", "ghelfuha mzyan": packed well (round 38).
    "~=emballage|~=anbalaj|~=carton|~=karton mzyan|mezyan|mlih|mli7|behi|bien",
    "=ghalfuha|=ghelfuha|=ghalfuh|=ghelfuh|=ghelfuhom mzyan|mezyan|mlih|mli7|behi",
  ]),
  cue("qword", 0.75, [
    "chhal|bchhal|9adech|9adach|b9adech|b9adach|kadech|kadach|9adah|9dach|9adeh, b chhal",
    "imta|fu9ach|fo9ach|wa9tach|wa9tech|w9tach|w9tech|wa9teh|wa9tah",
    "kifach|kifech|kifah|kifeh|3lach|3lech|3lah|3leh",
    "fin|win|wayn|mnin|mnayn|fayn|fain",
    "chkun|chkon|achkun, chkun nta|anta",
    "chnu|chno|chnuwa|chnowa|achnu|achno|achmen|ach|chnuma|chnahu|chnahi|chnia|achnahu, ach men",
    "wach|wech|wesh",
    "~taman|~tamen|~souma|~suma|~sum|~prix|~pri",
  ]),
  cue("what", 0.7, [
    "chnu|chno|chnuwa|chnowa|achnu|ach|wach|wech|wesh|chnahu|chnia|hah|hein|ah|eh",
    "smeh|smah|sameh|samah liya|lia|li, smahli|smehli|samhni|samahni|samhali|samhini|smahlia|smhli|samhni|smhni",
  ]),
  cue("repeat", 0.8, [
    "3awed|3awd|3awdi|3awedli|3awdli|3awduli",
    "ma sme3t*|sma3t*|sm3t*|tsm3*|fhemt*|fhamt*|fhmt*",
    "ma sme3t*|sma3t* mzyan|mlih|behi",
    "chnu|chno|ach|wach|chnowa 9olti|glti|9olt*|9ult*|galt*",
    "ma kayn* rizo, rizo, ma wsalnich, ma kanesm3*|kansm3*|nesma3*",
    "tsma3ni|tesma3ni|tsme3ni|ktsm3ni",
  ]),
  cue("hedge", 0.55, [
    "inchalah|nchalah|inchallah|anchalh|inchaalah|nchala|inchala, in|an cha alah|lh|alh, incha|inch alah, an chalah",
    "rabi|allah ysahel|ykun",
  ]),
  cue("doubt", 0.65, [
    "=nchuf|=nchufu|=nchufo|=nchufou|=ncuf, ghadi|bach|ta =nchuf|=nchufu, =nchuf m3a",
    "ma 3reft|n3rf|na3rf|na3raf|n3raf|n3rfch|na3rafch|n3arf*|kan3rf|3ref, ma3reft",
    "momkin|mumkin|yemken|yimken|ymken|balak",
    "nfeker*|nfaker*|nkhamem*|nkhemem*|=nkhm|nchawer*|nchawar*",
    "ya3ni|ya3n|yani",
    "machi|mouch|mech m2aked|mtaked|mt2aked",
  ]),
  cue("filler", 0.5, ["alo|alu|allo|aloo|=hmm|=hm|euh|eh|oh|iwa|wa|ehh|aah|ahh|yaani"]),
];
